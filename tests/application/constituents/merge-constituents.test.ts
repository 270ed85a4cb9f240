import { beforeEach, describe, expect, test } from 'bun:test'
import { ConstituentMerger } from '../../../src/application/constituents/constituent-merger'
import type { MergeConstituents, MergeConstituentsInput } from '../../../src/application/constituents/merge-constituents'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { ALL, householdExists, matchesOf, needFor, pair, pairOf, register, storedConstituent, storedNeed, storedQuietly } from './steps'

let world: World
let merge: MergeConstituents
// Ana (target) and her duplicate Anna (source) share a phone: one OPEN match between them.
let ana: Constituent
let anna: Constituent
beforeEach(async () => {
  world = await createWorld()
  merge = world.useCases.constituents.merge
  ana = await register(world, { firstName: 'Ana', lastName: 'Lopez', phone: '+15551234567', addressCity: 'Springfield' })
  anna = await register(world, { firstName: 'Anna', lastName: 'Lopez', phone: '+15551234567', email: 'anna@example.org' })
})

const mergeInto = (target: Constituent, source: Constituent, options: Partial<MergeConstituentsInput> = {}) =>
  merge.execute(world.admin, { sourceConstituentId: source.id, targetConstituentId: target.id, ...options })
const needsOf = async (constituent: Constituent) =>
  (await world.repositories.needs.list(world.organizationId, { constituentId: constituent.id }, ALL)).items

describe('MergeConstituents', () => {
  test("moves the source's needs to the target and its household", async () => {
    const first = await needFor(world, { constituentId: anna.id })
    const second = await needFor(world, { constituentId: anna.id })
    const own = await needFor(world, { constituentId: ana.id })
    await mergeInto(ana, anna)
    expect((await needsOf(ana)).map((n) => n.id)).toEqual([own.id, second.id, first.id])
    for (const need of [first, second])
      expect(await storedNeed(world, need.id)).toMatchObject({ constituentId: ana.id, householdId: ana.householdId })
    expect(await needsOf(anna)).toEqual([])
  })

  test('removes the source, and its household when nobody else is in it', async () => {
    await mergeInto(ana, anna)
    expect(await storedConstituent(world, anna.id)).toBeUndefined()
    expect(await householdExists(world, anna.householdId)).toBe(false)
    expect(await householdExists(world, ana.householdId)).toBe(true)
  })

  test("keeps the target's fields and answers the stored target", async () => {
    world.clock.advance(60_000)
    const merged = await mergeInto(ana, anna)
    expect(merged).toEqual({ ...ana, updatedAt: world.clock.now() })
    expect(await storedConstituent(world, ana.id)).toEqual(merged)
  })

  test('applies fieldOverrides to the target: a string sets, null clears, the rest stays', async () => {
    const merged = await mergeInto(ana, anna, {
      fieldOverrides: { email: 'anna@example.org', addressCity: null, dateOfBirth: '1980-05-01' },
    })
    expect(merged).toMatchObject({
      firstName: 'Ana',
      lastName: 'Lopez',
      phone: '+15551234567',
      email: 'anna@example.org',
      dateOfBirth: '1980-05-01',
    })
    expect('addressCity' in merged).toBe(false)
    expect(await storedConstituent(world, ana.id)).toEqual(merged)
  })

  describe('households', () => {
    let sibling: Constituent
    beforeEach(async () => {
      sibling = await register(world, { firstName: 'Sol', lastName: 'Ruiz' }, anna.householdId)
    })

    test('with mergeHouseholds, the other members of the source household and their needs join the target household', async () => {
      const siblingNeed = await needFor(world, { constituentId: sibling.id })
      await mergeInto(ana, anna, { mergeHouseholds: true })
      expect((await storedConstituent(world, sibling.id))!.householdId).toBe(ana.householdId)
      expect((await storedNeed(world, siblingNeed.id))!.householdId).toBe(ana.householdId)
      expect(
        (await world.repositories.constituents.listByHousehold(world.organizationId, ana.householdId)).map((c) => c.id).sort(),
      ).toEqual([ana.id, sibling.id].sort())
      expect(await householdExists(world, anna.householdId)).toBe(false)
    })

    test('without it, they stay in the source household, which stays', async () => {
      const siblingNeed = await needFor(world, { constituentId: sibling.id })
      await mergeInto(ana, anna)
      expect((await storedConstituent(world, sibling.id))!.householdId).toBe(anna.householdId)
      expect((await storedNeed(world, siblingNeed.id))!.householdId).toBe(anna.householdId)
      expect(await householdExists(world, anna.householdId)).toBe(true)
    })

    test('merging two members of one household keeps the household', async () => {
      await merge.execute(world.admin, { sourceConstituentId: sibling.id, targetConstituentId: anna.id, mergeHouseholds: true })
      expect(await storedConstituent(world, sibling.id)).toBeUndefined()
      expect((await storedConstituent(world, anna.id))!.householdId).toBe(anna.householdId)
      expect(await householdExists(world, anna.householdId)).toBe(true)
    })
  })

  describe('household matches', () => {
    test('resolves the open match between the two, by whom and when', async () => {
      world.clock.advance(60_000)
      await mergeInto(ana, anna)
      expect(await matchesOf(world)).toMatchObject([
        {
          constituentId: anna.id,
          candidateConstituentId: ana.id,
          status: 'RESOLVED',
          action: 'MERGE_CONSTITUENT',
          resolvedBy: world.admin.memberId,
          resolvedAt: world.clock.now(),
        },
      ])
    })

    test("points the source's other open matches at the target", async () => {
      const cara = await register(world, { firstName: 'Cara', email: 'anna@example.org' })
      await mergeInto(ana, anna)
      const open = await matchesOf(world, 'OPEN')
      expect(open.map(pairOf)).toEqual([pair(ana, cara)])
      expect(open[0]).toMatchObject({ constituentId: cara.id, candidateConstituentId: ana.id, reason: 'same email' })
    })

    test("drops the source's open match with someone the target is already paired with", async () => {
      const cara = await register(world, { firstName: 'Cara', phone: '+15551234567' })
      expect(await matchesOf(world, 'OPEN')).toHaveLength(3)
      await mergeInto(ana, anna)
      expect((await matchesOf(world, 'OPEN')).map(pairOf)).toEqual([pair(ana, cara)])
      expect((await matchesOf(world, 'RESOLVED')).map(pairOf)).toEqual([pair(ana, anna)])
      expect(await matchesOf(world)).toHaveLength(2)
    })

    test('fieldOverrides that change contact fields send the target through duplicate detection again', async () => {
      const ben = await register(world, { firstName: 'Ben', email: 'ben@example.org' })
      await mergeInto(ana, anna, { fieldOverrides: { email: 'BEN@example.org' } })
      expect(await matchesOf(world, 'OPEN')).toMatchObject([
        { constituentId: ana.id, candidateConstituentId: ben.id, reason: 'same email', status: 'OPEN' },
      ])
    })

    test('a merge without contact changes opens no match', async () => {
      await storedQuietly(world, { firstName: 'Twin', phone: '+15551234567' })
      await mergeInto(ana, anna, { fieldOverrides: { addressCity: 'Chicago' } })
      expect(await matchesOf(world, 'OPEN')).toEqual([])
    })

    test('leaves the open matches of other constituents alone', async () => {
      const ben = await register(world, { firstName: 'Ben', email: 'ben@example.org' })
      const benito = await register(world, { firstName: 'Benito', email: 'ben@example.org' })
      await mergeInto(ana, anna)
      expect((await matchesOf(world, 'OPEN')).map(pairOf)).toEqual([pair(ben, benito)])
    })
  })

  describe('refusals', () => {
    test('refuses to merge a constituent into itself', async () => {
      const error = await failureOf(mergeInto(ana, ana), InvalidError)
      expect(pathsOf(error)).toEqual(['/sourceConstituentId'])
      expect(await storedConstituent(world, ana.id)).toEqual(ana)
    })

    test('answers Constituent not found when either one is unknown or of another organization', async () => {
      const other = await world.otherOrganization()
      const theirs = await register(other, { firstName: 'Ana', phone: '+15551234567' })
      for (const [target, source] of [
        [ana, theirs],
        [theirs, anna],
        [ana, { ...anna, id: crypto.randomUUID() }],
      ] as const) {
        const error = await failureOf(mergeInto(target, source), NotFoundError)
        expect(error.message).toBe('Constituent not found')
      }
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
      expect(await storedConstituent(other, theirs.id)).toEqual(theirs)
    })

    test('refuses invalid fieldOverrides, naming them, and changes nothing', async () => {
      const need = await needFor(world, { constituentId: anna.id })
      const error = await failureOf(
        mergeInto(ana, anna, { mergeHouseholds: true, fieldOverrides: { phone: '555', addressState: 'ZZ', addressZip: '1234' } }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/fieldOverrides/addressState', '/fieldOverrides/addressZip', '/fieldOverrides/phone'])
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
      expect(await storedConstituent(world, ana.id)).toEqual(ana)
      expect((await storedNeed(world, need.id))!.constituentId).toBe(anna.id)
      expect((await matchesOf(world)).map((m) => m.status)).toEqual(['OPEN'])
    })

    test('a merge that fails after it started writing leaves everything as it was', async () => {
      const sibling = await register(world, { firstName: 'Sol' }, anna.householdId)
      const need = await needFor(world, { constituentId: anna.id })
      const merger = world.container.get(ConstituentMerger)
      const failure = world.container.get(PORTS.unitOfWork).run(async (r) => {
        await merger.merge(r, world.admin, anna.id, ana.id, { mergeHouseholds: true, fieldOverrides: { firstName: 'Changed' } })
        throw new Error('the connection dropped')
      })
      await failureOf(failure, Error)
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
      expect(await storedConstituent(world, ana.id)).toEqual(ana)
      expect((await storedConstituent(world, sibling.id))!.householdId).toBe(anna.householdId)
      expect(await storedNeed(world, need.id)).toMatchObject({ constituentId: anna.id, householdId: anna.householdId })
      expect(await householdExists(world, anna.householdId)).toBe(true)
      expect((await matchesOf(world)).map((m) => m.status)).toEqual(['OPEN'])
    })
  })

  describe('who may merge', () => {
    test('a member with duplicate_resolver may', async () => {
      const resolver = await world.member('partner_agent', { partnerId: world.defaultPartner.id, profiles: ['duplicate_resolver'] })
      await merge.execute(resolver, { sourceConstituentId: anna.id, targetConstituentId: ana.id })
      expect(await storedConstituent(world, anna.id)).toBeUndefined()
    })

    test('no other role may, partner_admin and staff included', async () => {
      for (const actor of [
        await world.member('staff', { profiles: ['intake_staff', 'pii_reader'] }),
        await world.member('partner_admin', { partnerId: world.defaultPartner.id }),
      ]) {
        await failureOf(merge.execute(actor, { sourceConstituentId: anna.id, targetConstituentId: ana.id }), ForbiddenError)
      }
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
    })
  })

  test('answers without the fields the caller may not read', async () => {
    const resolver = await world.member('staff', { profiles: ['duplicate_resolver'] })
    const merged = await merge.execute(resolver, { sourceConstituentId: anna.id, targetConstituentId: ana.id })
    expect(merged).toMatchObject({ id: ana.id, firstName: 'Ana' })
    expect('phone' in merged).toBe(false)
    expect('addressCity' in merged).toBe(false)
    expect((await storedConstituent(world, ana.id))!.phone).toBe('+15551234567')
  })
})
