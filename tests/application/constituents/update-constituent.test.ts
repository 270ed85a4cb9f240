import { beforeEach, describe, expect, test } from 'bun:test'
import type { UpdateConstituent } from '../../../src/application/constituents/update-constituent'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { ALL, matchesOf, pair, pairOf, register, storedConstituent, storedQuietly } from './steps'

let world: World
let update: UpdateConstituent
let ana: Constituent
beforeEach(async () => {
  world = await createWorld()
  update = world.useCases.constituents.update
  ana = await register(world, {
    firstName: 'Ana',
    lastName: 'Lopez',
    phone: '+15551234567',
    email: 'ana@example.org',
    addressCity: 'Springfield',
  })
})

const PHONE_B = '+15557654321'

describe('UpdateConstituent', () => {
  test('sets the fields sent, clears those sent as null, leaves the others', async () => {
    world.clock.advance(60_000)
    const updated = await update.execute(world.admin, ana.id, { phone: PHONE_B, email: null, addressState: 'IL', addressZip: '62701' })
    const expected = { ...ana, phone: PHONE_B, addressState: 'IL', addressZip: '62701', updatedAt: world.clock.now() }
    delete expected.email
    expect(updated).toEqual(expected)
    expect(await storedConstituent(world, ana.id)).toEqual(expected)
  })

  test('keeps the household and creation time', async () => {
    world.clock.advance(60_000)
    const updated = await update.execute(world.admin, ana.id, { firstName: 'Anna' })
    expect(updated).toMatchObject({ householdId: ana.householdId, createdAt: ana.createdAt })
  })

  test('an empty change leaves the fields as they were', async () => {
    const updated = await update.execute(world.admin, ana.id, {})
    expect({ ...updated, updatedAt: ana.updatedAt }).toEqual(ana)
  })

  test('is found by search under its new name', async () => {
    await update.execute(world.admin, ana.id, { lastName: 'Núñez' })
    const search = world.useCases.constituents.search
    expect((await search.execute(world.admin, 'nunez', ALL)).items.map((c) => c.id)).toEqual([ana.id])
    expect((await search.execute(world.admin, 'lopez', ALL)).items).toEqual([])
  })

  test('refuses invalid values, naming each field, and changes nothing', async () => {
    const error = await failureOf(
      update.execute(world.admin, ana.id, {
        phone: '555 0142',
        addressState: 'ZZ',
        addressZip: '1234',
        dateOfBirth: '2023-02-29',
        email: 'nope',
        firstName: 'Anna',
      }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/addressState', '/addressZip', '/dateOfBirth', '/email', '/phone'])
    expect(await storedConstituent(world, ana.id)).toEqual(ana)
  })

  test('answers Constituent not found for an unknown id', async () => {
    const error = await failureOf(update.execute(world.admin, crypto.randomUUID(), { firstName: 'X' }), NotFoundError)
    expect(error.message).toBe('Constituent not found')
  })

  test("answers Constituent not found for another organization's constituent, and leaves it alone", async () => {
    const other = await world.otherOrganization()
    const error = await failureOf(update.execute(other.admin, ana.id, { firstName: 'X' }), NotFoundError)
    expect(error.resource).toBe('Constituent')
    expect(await storedConstituent(world, ana.id)).toEqual(ana)
  })

  describe('duplicate detection', () => {
    test('runs again when a contact field changes', async () => {
      const ben = await register(world, { firstName: 'Ben', phone: PHONE_B })
      expect(await matchesOf(world)).toEqual([])
      await update.execute(world.admin, ben.id, { phone: ana.phone! })
      expect(await matchesOf(world)).toMatchObject([
        { constituentId: ben.id, candidateConstituentId: ana.id, reason: 'same phone', status: 'OPEN' },
      ])
    })

    test('runs when a name changes, finding name and date of birth', async () => {
      const ben = await register(world, { firstName: 'Ben', lastName: 'Lopez', dateOfBirth: '1980-05-01' })
      await update.execute(world.admin, ana.id, { dateOfBirth: '1980-05-01' })
      expect(await matchesOf(world)).toEqual([])
      await update.execute(world.admin, ben.id, { firstName: 'ANA' })
      expect(await matchesOf(world)).toMatchObject([
        { constituentId: ben.id, candidateConstituentId: ana.id, reason: 'same name and date of birth' },
      ])
    })

    test('does not run when only city, state or ZIP change', async () => {
      const twin = await storedQuietly(world, { firstName: 'Twin', phone: ana.phone! })
      await update.execute(world.admin, ana.id, { addressCity: 'Chicago', addressState: 'IL', addressZip: '60601' })
      expect(await matchesOf(world)).toEqual([])
      await update.execute(world.admin, ana.id, { firstName: 'Anna' })
      expect((await matchesOf(world)).map(pairOf)).toEqual([pair(ana, twin)])
    })

    test('does not run when a field is set to the value it has', async () => {
      await storedQuietly(world, { firstName: 'Twin', phone: ana.phone! })
      await update.execute(world.admin, ana.id, { phone: ana.phone!, firstName: 'Ana' })
      expect(await matchesOf(world)).toEqual([])
    })

    test('opens no second match for a pair that already has one', async () => {
      const ben = await register(world, { firstName: 'Ben', phone: ana.phone! })
      expect(await matchesOf(world)).toHaveLength(1)
      await update.execute(world.admin, ben.id, { email: ana.email! })
      await update.execute(world.admin, ana.id, { firstName: 'Anna' })
      const matches = await matchesOf(world)
      expect(matches).toHaveLength(1)
      expect(matches[0]).toMatchObject({ constituentId: ben.id, candidateConstituentId: ana.id, reason: 'same phone', status: 'OPEN' })
    })

    test('does not reopen a pair someone dismissed', async () => {
      const ben = await register(world, { firstName: 'Ben', phone: ana.phone! })
      const [match] = await matchesOf(world)
      await world.useCases.constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
      await update.execute(world.admin, ben.id, { phone: PHONE_B })
      await update.execute(world.admin, ben.id, { phone: ana.phone!, email: ana.email! })
      expect(await matchesOf(world, 'OPEN')).toEqual([])
      expect((await matchesOf(world)).map((m) => m.status)).toEqual(['DISMISSED'])
    })

    test('still finds new candidates for a constituent with a dismissed pair', async () => {
      const ben = await register(world, { firstName: 'Ben', phone: ana.phone! })
      const [match] = await matchesOf(world)
      await world.useCases.constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
      const cara = await register(world, { firstName: 'Cara', email: 'cara@example.org' })
      await update.execute(world.admin, ben.id, { email: 'cara@example.org' })
      expect((await matchesOf(world, 'OPEN')).map(pairOf)).toEqual([pair(ben, cara)])
    })
  })

  describe('who may update', () => {
    test('staff, partner roles and a volunteer with intake_staff may', async () => {
      const actors = [
        await world.member('staff'),
        await world.member('partner_agent', { partnerId: world.defaultPartner.id }),
        await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] }),
      ]
      for (const [i, actor] of actors.entries()) await update.execute(actor, ana.id, { firstName: `Ana ${i}` })
      expect((await storedConstituent(world, ana.id))!.firstName).toBe('Ana 2')
    })

    test('a volunteer without intake_staff may not', async () => {
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['needs_processor'] })
      await failureOf(update.execute(volunteer, ana.id, { firstName: 'X' }), ForbiddenError)
      expect(await storedConstituent(world, ana.id)).toEqual(ana)
    })
  })

  test('answers without the fields the caller may not read', async () => {
    const staff = await world.member('staff', { profiles: ['email_phone_communicator'] })
    const updated = await update.execute(staff, ana.id, { addressCity: 'Chicago', dateOfBirth: '1980-05-01' })
    expect(updated).toMatchObject({ firstName: 'Ana', phone: ana.phone, email: ana.email })
    expect('addressCity' in updated).toBe(false)
    expect('dateOfBirth' in updated).toBe(false)
    expect(await storedConstituent(world, ana.id)).toMatchObject({ addressCity: 'Chicago', dateOfBirth: '1980-05-01' })
  })
})
