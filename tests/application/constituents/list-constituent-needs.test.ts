import { beforeEach, describe, expect, test } from 'bun:test'
import type { ListConstituentNeeds } from '../../../src/application/constituents/list-constituent-needs'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError, NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import type { Partner } from '../../../src/domain/partners/partner'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { ALL, needFor, register } from './steps'

let world: World
let list: ListConstituentNeeds
let ana: Constituent
let pantry: Partner
let shelter: Partner
let atPantry: Need
let atShelter: Need
let confidentialAtPantry: Need
beforeEach(async () => {
  world = await createWorld()
  list = world.useCases.constituents.listNeeds
  pantry = await world.partner({ name: 'Pantry' })
  shelter = await world.partner({ name: 'Shelter' })
  ana = await register(world, { firstName: 'Ana', phone: '+15551234567' })
  atPantry = await needFor(world, {
    partnerId: pantry.id,
    constituentId: ana.id,
    customFields: { story: 'food', firstName: 'Ana', phone: '+15551234567' },
  })
  atShelter = await needFor(world, {
    partnerId: shelter.id,
    constituentId: ana.id,
    customFields: { story: 'bed', dateOfBirth: '1980-05-01' },
  })
  confidentialAtPantry = await needFor(world, {
    partnerId: pantry.id,
    constituentId: ana.id,
    isConfidential: true,
    customFields: { story: 'secret' },
  })
})

const listed = async (actor: Actor, constituentId = ana.id) => (await list.execute(actor, constituentId, ALL)).items
const fieldsById = async (actor: Actor) => Object.fromEntries((await listed(actor)).map((n) => [n.id, n.customFields]))

describe('ListConstituentNeeds', () => {
  test("lists every need of the constituent across partners, newest first, and no one else's", async () => {
    const ben = await register(world, { firstName: 'Ben' })
    await needFor(world, { constituentId: ben.id })
    await needFor(world, { customFields: { description: 'nobody' } })
    expect((await listed(world.admin)).map((n) => n.id)).toEqual([confidentialAtPantry.id, atShelter.id, atPantry.id])
  })

  test('shows org_admin every need whole', async () => {
    expect(await listed(world.admin)).toEqual([confidentialAtPantry, atShelter, atPantry])
  })

  test('pages the list and tells the total', async () => {
    const first = await list.execute(world.admin, ana.id, { page: 1, limit: 2 })
    const second = await list.execute(world.admin, ana.id, { page: 2, limit: 2 })
    expect(first.items.map((n) => n.id)).toEqual([confidentialAtPantry.id, atShelter.id])
    expect(second.items.map((n) => n.id)).toEqual([atPantry.id])
    expect([first.total, second.total]).toEqual([3, 3])
  })

  test('lists nothing for a constituent without needs', async () => {
    const ben = await register(world, { firstName: 'Ben' })
    expect(await list.execute(world.admin, ben.id, ALL)).toEqual({ items: [], total: 0 })
  })

  test('follows the needs of a constituent registered from a need', async () => {
    const need = await needFor(world, { customFields: { firstName: 'Cara' } })
    expect((await listed(world.admin, need.constituentId)).map((n) => n.id)).toEqual([need.id])
  })

  describe('partner roles', () => {
    test("see other partners' needs listed, with their customFields emptied", async () => {
      const admin = await world.member('partner_admin', { partnerId: pantry.id })
      const seen = await listed(admin)
      expect(seen.map((n) => n.id)).toEqual([confidentialAtPantry.id, atShelter.id, atPantry.id])
      expect(seen.find((n) => n.id === atShelter.id)).toEqual({ ...atShelter, customFields: {} })
    })

    test("a partner_admin sees its own partner's needs whole, confidential ones included", async () => {
      const admin = await world.member('partner_admin', { partnerId: pantry.id })
      expect(await fieldsById(admin)).toEqual({
        [atPantry.id]: atPantry.customFields,
        [confidentialAtPantry.id]: { story: 'secret' },
        [atShelter.id]: {},
      })
    })

    test("a partner_agent sees its own partner's needs without contact details or confidential fields", async () => {
      const agent = await world.member('partner_agent', { partnerId: pantry.id })
      expect(await fieldsById(agent)).toEqual({
        [atPantry.id]: { story: 'food', firstName: 'Ana' },
        [confidentialAtPantry.id]: {},
        [atShelter.id]: {},
      })
    })

    test("a volunteer with intake_staff of the other partner sees that partner's needs but not the pantry's", async () => {
      const volunteer = await world.member('volunteer', { partnerId: shelter.id, profiles: ['intake_staff'] })
      expect(await fieldsById(volunteer)).toEqual({ [atPantry.id]: {}, [confidentialAtPantry.id]: {}, [atShelter.id]: { story: 'bed' } })
    })
  })

  describe('organization-wide roles', () => {
    test("staff see every partner's fields, without contact details or confidential fields", async () => {
      const staff = await world.member('staff')
      expect(await fieldsById(staff)).toEqual({
        [atPantry.id]: { story: 'food', firstName: 'Ana' },
        [confidentialAtPantry.id]: {},
        [atShelter.id]: { story: 'bed' },
      })
    })

    test('staff with pii_reader see every field', async () => {
      const staff = await world.member('staff', { profiles: ['pii_reader'] })
      expect(await listed(staff)).toEqual([confidentialAtPantry, atShelter, atPantry])
    })

    test('staff with email_phone_communicator see the phone but not the date of birth', async () => {
      const staff = await world.member('staff', { profiles: ['email_phone_communicator'] })
      expect((await fieldsById(staff))[atPantry.id]).toEqual(atPantry.customFields)
      expect((await fieldsById(staff))[atShelter.id]).toEqual({ story: 'bed' })
    })
  })

  test('answers Constituent not found for an unknown id', async () => {
    const error = await failureOf(list.execute(world.admin, crypto.randomUUID(), ALL), NotFoundError)
    expect(error.message).toBe('Constituent not found')
  })

  test("answers Constituent not found for another organization's constituent", async () => {
    const other = await world.otherOrganization()
    const error = await failureOf(list.execute(other.admin, ana.id, ALL), NotFoundError)
    expect(error.resource).toBe('Constituent')
  })

  test('a volunteer without intake_staff may not list', async () => {
    const volunteer = await world.member('volunteer', { partnerId: pantry.id, profiles: ['pii_reader'] })
    await failureOf(list.execute(volunteer, ana.id, ALL), ForbiddenError)
  })
})
