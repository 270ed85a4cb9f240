import { beforeEach, describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError, NotFoundError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { register } from './steps'

// docs/constituents.md "Constituents and households": the people of a constituent's household, redacted.
let world: World
let ada: Constituent
let byron: Constituent
beforeEach(async () => {
  world = await createWorld()
  ada = await register(world, { firstName: 'Ada', lastName: 'Lovelace', phone: '+15551234567', email: 'ada@example.org' })
  byron = await register(world, { firstName: 'Byron', lastName: 'Lovelace', email: 'byron@example.org' }, ada.householdId)
  await register(world, { firstName: 'Charles', lastName: 'Babbage' })
})

const household = (actor = world.admin, id = ada.id) => world.useCases.constituents.household.execute(actor, id)

describe('GetHousehold', () => {
  test("answers everyone in the constituent's household, itself included, oldest first, and no one else", async () => {
    expect(await household()).toEqual([ada, byron])
    expect(await household(world.admin, byron.id)).toEqual([ada, byron])
  })

  test('redacts each person as reading them one by one does', async () => {
    const agent = await world.member('partner_agent', { partnerId: world.defaultPartner.id })
    const people = await household(agent)
    expect(people).toEqual([
      await world.useCases.constituents.get.execute(agent, ada.id),
      await world.useCases.constituents.get.execute(agent, byron.id),
    ])
    for (const person of people) expect(person).not.toHaveProperty('email')
  })

  test("a volunteer may not read it; an unknown or another organization's constituent is not found", async () => {
    await failureOf(household(await world.member('volunteer', { partnerId: world.defaultPartner.id })), ForbiddenError)
    await failureOf(household(world.admin, crypto.randomUUID()), NotFoundError)
    const other = await world.otherOrganization()
    await failureOf(household(other.admin, ada.id), NotFoundError)
  })
})
