import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateConstituent } from '../../../src/application/constituents/create-constituent'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { aContact } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { ALL, householdExists, matchesOf, register, storedConstituent } from './steps'

let world: World
let create: CreateConstituent
beforeEach(async () => {
  world = await createWorld()
  create = world.useCases.constituents.create
})

const count = async () => (await world.useCases.constituents.search.execute(world.admin, '', ALL)).total
const ANA = aContact()

describe('CreateConstituent', () => {
  test('stores every field in a new household of its own and answers the record stored', async () => {
    const created = await create.execute(world.admin, ANA)
    expect(created).toMatchObject({
      ...ANA,
      organizationId: world.organizationId,
      createdAt: world.clock.now(),
      updatedAt: world.clock.now(),
    })
    expect(await storedConstituent(world, created.id)).toEqual(created)
    expect(await householdExists(world, created.householdId)).toBe(true)
    expect((await world.repositories.constituents.listByHousehold(world.organizationId, created.householdId)).map((c) => c.id)).toEqual([
      created.id,
    ])
  })

  test('trims the values', async () => {
    const created = await create.execute(world.admin, { firstName: '  Ana ', phone: ' +15551234567' })
    expect(created).toMatchObject({ firstName: 'Ana', phone: '+15551234567' })
  })

  test('joins the household sent', async () => {
    const relative = await register(world, { firstName: 'Maria' })
    const created = await create.execute(world.admin, { firstName: 'Ana', householdId: relative.householdId })
    expect(created.householdId).toBe(relative.householdId)
  })

  test("refuses a household that is unknown or another organization's, naming /householdId", async () => {
    const other = await world.otherOrganization()
    const theirs = await register(other, { firstName: 'Maria' })
    for (const householdId of [theirs.householdId, crypto.randomUUID()]) {
      const error = await failureOf(create.execute(world.admin, { firstName: 'Ana', householdId }), InvalidError)
      expect(pathsOf(error)).toEqual(['/householdId'])
    }
    expect(await count()).toBe(0)
  })

  describe('validation', () => {
    test.each([
      ['a phone of seven digits, no area code', 'phone', '555-0142'],
      ['a phone with letters', 'phone', '1-800-FLOWERS'],
      ['state ZZ', 'addressState', 'ZZ'],
      ['a state in lower case', 'addressState', 'ny'],
      ['ZIP 1234', 'addressZip', '1234'],
      ['a six-digit ZIP', 'addressZip', '123456'],
      ['2023-02-29, which never was', 'dateOfBirth', '2023-02-29'],
      ['a date without leading zeros', 'dateOfBirth', '1980-5-1'],
      ['an email without a dot in the domain', 'email', 'ana@example'],
      ['an email with spaces', 'email', 'ana at example.org'],
      ['a first name over 200 characters', 'firstName', 'a'.repeat(201)],
    ])('refuses %s, naming the field, and stores nothing', async (_case, field, value) => {
      const error = await failureOf(create.execute(world.admin, { ...ANA, [field]: value }), InvalidError)
      expect(pathsOf(error)).toEqual([`/${field}`])
      expect(error.errors[0]!.message).not.toBe('')
      expect(await count()).toBe(0)
    })

    test('reports every bad field at once', async () => {
      const error = await failureOf(
        create.execute(world.admin, {
          firstName: 'Ana',
          phone: '555',
          addressState: 'ZZ',
          addressZip: '1234',
          dateOfBirth: '2023-02-29',
          email: 'x',
        }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/addressState', '/addressZip', '/dateOfBirth', '/email', '/phone'])
    })

    test('accepts a territory, a leap day and a ZIP with leading zeros', async () => {
      const created = await create.execute(world.admin, { addressState: 'PR', dateOfBirth: '2024-02-29', addressZip: '00901' })
      expect(created).toMatchObject({ addressState: 'PR', dateOfBirth: '2024-02-29', addressZip: '00901' })
    })

    test('refuses a constituent with no field at all, or only blank ones', async () => {
      await failureOf(create.execute(world.admin, {}), InvalidError)
      await failureOf(create.execute(world.admin, { firstName: '  ', email: '' }), InvalidError)
      expect(await count()).toBe(0)
    })
  })

  describe('duplicate detection', () => {
    test('opens a match with each constituent that shares a key', async () => {
      const known = await register(world, { firstName: 'Ana', phone: ANA.phone })
      const created = await create.execute(world.admin, { firstName: 'Anna', phone: ANA.phone })
      expect(await matchesOf(world)).toMatchObject([
        { constituentId: created.id, candidateConstituentId: known.id, reason: 'same phone', status: 'OPEN' },
      ])
    })

    test('answers the possible duplicates with their reasons, and the warning a need would carry', async () => {
      const byPhone = await register(world, { firstName: 'Ana', phone: ANA.phone })
      const byEmailAndPhone = await register(world, { firstName: 'Anita', phone: ANA.phone, email: ANA.email })
      const created = await create.execute(world.admin, { firstName: 'Anna', phone: ANA.phone, email: ANA.email })
      expect(created.possibleDuplicates!.sort((a, b) => a.reasons.length - b.reasons.length)).toEqual([
        { constituentId: byPhone.id, reasons: ['same phone'] },
        { constituentId: byEmailAndPhone.id, reasons: ['same phone', 'same email'] },
      ])
      expect(created.duplicateWarning).toBe('Possible duplicate of 2 constituents: same phone, same email')
    })

    test('opens none for someone new, and answers no possible duplicates', async () => {
      await register(world, { firstName: 'Ana', phone: ANA.phone })
      const created = await create.execute(world.admin, { firstName: 'Ben', phone: '+15550000000' })
      expect(await matchesOf(world)).toEqual([])
      expect(created).not.toHaveProperty('possibleDuplicates')
      expect(created).not.toHaveProperty('duplicateWarning')
    })
  })

  describe('who may create', () => {
    test('org_admin, staff, partner_admin, partner_agent, and a volunteer with intake_staff', async () => {
      const actors = [
        world.admin,
        await world.member('staff'),
        await world.member('partner_admin', { partnerId: world.defaultPartner.id }),
        await world.member('partner_agent', { partnerId: world.defaultPartner.id }),
        await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] }),
      ]
      for (const actor of actors) await create.execute(actor, { firstName: 'Ana' })
      expect(await count()).toBe(actors.length)
    })

    test('not a volunteer without intake_staff', async () => {
      const volunteer = await world.member('volunteer', {
        partnerId: world.defaultPartner.id,
        profiles: ['pii_reader', 'duplicate_resolver'],
      })
      await failureOf(create.execute(volunteer, { firstName: 'Ana' }), ForbiddenError)
      expect(await count()).toBe(0)
    })
  })

  test('answers without the fields the creator may not read, storing them all', async () => {
    const staff = await world.member('staff')
    const created = await create.execute(staff, ANA)
    expect(created).toEqual({
      id: created.id,
      organizationId: world.organizationId,
      householdId: created.householdId,
      firstName: 'Ana',
      lastName: 'Lopez',
      createdAt: world.clock.now(),
      updatedAt: world.clock.now(),
    })
    expect(await storedConstituent(world, created.id)).toMatchObject(ANA)
  })
})
