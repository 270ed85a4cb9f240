import { beforeEach, describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError, NotFoundError } from '../../../src/domain/errors'
import { aContact } from '../../support/builders'
import { fieldsSeenBy } from '../../support/contact-fields'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { register } from './steps'

// docs/constituents.md: one constituent, redacted like a search result.
let world: World
let ada: Constituent
beforeEach(async () => {
  world = await createWorld()
  ada = await register(world, aContact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' }))
})

const get = (actor = world.admin, id = ada.id) => world.useCases.constituents.get.execute(actor, id)

describe('GetConstituent', () => {
  test('answers every field to who may read them all', async () => {
    expect(await get()).toEqual(ada)
    expect(await get(await world.member('staff', { profiles: ['pii_reader'] }))).toEqual(ada)
  })

  test('leaves out what the caller may not read, exactly as a search does', async () => {
    const RECORD_KEYS = ['id', 'organizationId', 'householdId', 'createdAt', 'updatedAt']
    for (const actor of [
      await world.member('staff'),
      await world.member('staff', { profiles: ['email_phone_communicator'] }),
      await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] }),
    ]) {
      const [found] = (await world.useCases.constituents.search.execute(actor, 'Lovelace', { page: 1, limit: 10 })).items
      expect(await get(actor)).toEqual(found!)
    }
    const contactOnly = await get(await world.member('staff', { profiles: ['email_phone_communicator'] }))
    expect(Object.keys(contactOnly).sort()).toEqual([...RECORD_KEYS, ...fieldsSeenBy('contact')].sort())
    const namesOnly = await get(await world.member('staff'))
    expect(Object.keys(namesOnly).sort()).toEqual([...RECORD_KEYS, ...fieldsSeenBy('everyone')].sort())
  })

  test('is refused to who may not read constituents', async () => {
    await failureOf(get(await world.member('volunteer', { partnerId: world.defaultPartner.id })), ForbiddenError)
  })

  test("another organization's constituent, or an unknown id, is not found", async () => {
    const other = await world.otherOrganization()
    await failureOf(get(other.admin), NotFoundError)
    await failureOf(get(world.admin, crypto.randomUUID()), NotFoundError)
  })
})
