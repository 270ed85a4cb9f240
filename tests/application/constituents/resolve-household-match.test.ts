import { beforeEach, describe, expect, test } from 'bun:test'
import type { ResolveHouseholdMatch, ResolveHouseholdMatchInput } from '../../../src/application/constituents/resolve-household-match'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import type { HouseholdMatch } from '../../../src/domain/constituents/household-match'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { asStored, householdExists, matchesOf, needFor, pair, pairOf, register, storedConstituent, storedNeed } from './steps'

let world: World
let resolve: ResolveHouseholdMatch
// Ana is on file with a need; Anna arrives later with the same phone and a need of her own:
// the match names Anna as its constituent and Ana as the candidate.
let ana: Constituent
let anna: Constituent
let anasNeed: Need
let annasNeed: Need
let match: HouseholdMatch
beforeEach(async () => {
  world = await createWorld()
  resolve = world.useCases.constituents.resolve
  anasNeed = await needFor(world, { customFields: { firstName: 'Ana', lastName: 'Lopez', phone: '+15551234567' } })
  annasNeed = await needFor(world, {
    customFields: { firstName: 'Anna', lastName: 'Lopez', phone: '+15551234567', email: 'anna@example.org' },
  })
  ana = (await storedConstituent(world, anasNeed.constituentId!))!
  anna = (await storedConstituent(world, annasNeed.constituentId!))!
  match = (await matchesOf(world))[0]!
  world.clock.advance(60_000)
})

/** Resolves as the admin; answers the match as stored (the people it comes with are checked on their own). */
const resolveMatch = async (input: ResolveHouseholdMatchInput, id = match.id) => asStored(await resolve.execute(world.admin, id, input))
const storedMatch = () => world.repositories.householdMatches.findById(world.organizationId, match.id)

describe('ResolveHouseholdMatch', () => {
  test('the match is the one the duplicate opened', () => {
    expect(match).toMatchObject({ constituentId: anna.id, candidateConstituentId: ana.id, status: 'OPEN' })
  })

  test('answers the match with both people as the caller may read them', async () => {
    const resolver = await world.member('staff', { profiles: ['duplicate_resolver'] })
    const answer = await resolve.execute(resolver, match.id, { action: 'DISMISS' })
    const names = ({ phone: _p, email: _e, ...c }: Constituent) => c
    expect(answer).toMatchObject({ constituent: names(anna), candidate: names(ana) })
  })

  test('after MERGE_CONSTITUENT the merged-away side is absent and the other is the merged record', async () => {
    const answer = await resolve.execute(world.admin, match.id, { action: 'MERGE_CONSTITUENT' })
    expect(answer.constituent).toBeUndefined()
    expect(answer.candidate).toEqual((await storedConstituent(world, ana.id))!)
  })

  describe('MERGE_CONSTITUENT', () => {
    test('merges the constituent into the candidate by default', async () => {
      await resolveMatch({ action: 'MERGE_CONSTITUENT' })
      expect(await storedConstituent(world, anna.id)).toBeUndefined()
      expect(await storedConstituent(world, ana.id)).toMatchObject({ firstName: 'Ana', householdId: ana.householdId })
      expect(await storedNeed(world, annasNeed.id)).toMatchObject({ constituentId: ana.id, householdId: ana.householdId })
      expect(await householdExists(world, anna.householdId)).toBe(false)
    })

    test('answers and stores the match resolved, by whom, when and how', async () => {
      const resolved = await resolveMatch({ action: 'MERGE_CONSTITUENT' })
      const expected: HouseholdMatch = {
        ...match,
        status: 'RESOLVED',
        action: 'MERGE_CONSTITUENT',
        resolvedAt: world.clock.now(),
        resolvedBy: world.admin.memberId,
      }
      expect(resolved).toEqual(expected)
      expect(await storedMatch()).toEqual(expected)
    })

    test("merges the candidate into the match's constituent when that one is the target", async () => {
      await resolveMatch({ action: 'MERGE_CONSTITUENT', targetConstituentId: anna.id })
      expect(await storedConstituent(world, ana.id)).toBeUndefined()
      expect(await storedConstituent(world, anna.id)).toMatchObject({ firstName: 'Anna' })
      expect(await storedNeed(world, anasNeed.id)).toMatchObject({ constituentId: anna.id, householdId: anna.householdId })
      expect((await storedMatch())!.status).toBe('RESOLVED')
    })

    test('the candidate named as target is the default', async () => {
      await resolveMatch({ action: 'MERGE_CONSTITUENT', targetConstituentId: ana.id })
      expect(await storedConstituent(world, anna.id)).toBeUndefined()
    })

    test('applies fieldOverrides to the target, null clearing', async () => {
      await resolveMatch({ action: 'MERGE_CONSTITUENT', fieldOverrides: { email: 'anna@example.org', lastName: null } })
      const target = await storedConstituent(world, ana.id)
      expect(target).toMatchObject({ firstName: 'Ana', email: 'anna@example.org', phone: '+15551234567' })
      expect('lastName' in target!).toBe(false)
    })

    test('refuses a target that is not one of the pair, and changes nothing', async () => {
      const ben = await register(world, { firstName: 'Ben' })
      for (const targetConstituentId of [ben.id, crypto.randomUUID()]) {
        const error = await failureOf(resolveMatch({ action: 'MERGE_CONSTITUENT', targetConstituentId }), InvalidError)
        expect(pathsOf(error)).toEqual(['/targetConstituentId'])
      }
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
      expect((await storedMatch())!.status).toBe('OPEN')
    })

    test('refuses invalid fieldOverrides and changes nothing', async () => {
      const error = await failureOf(resolveMatch({ action: 'MERGE_CONSTITUENT', fieldOverrides: { addressZip: '1234' } }), InvalidError)
      expect(pathsOf(error)).toEqual(['/fieldOverrides/addressZip'])
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
      expect(await storedMatch()).toEqual(match)
    })

    test("settles the merged constituent's other open matches: one pair, one match", async () => {
      const cara = await register(world, { firstName: 'Cara', phone: '+15551234567' })
      expect(await matchesOf(world, 'OPEN')).toHaveLength(3)
      await resolveMatch({ action: 'MERGE_CONSTITUENT' })
      expect((await matchesOf(world, 'OPEN')).map(pairOf)).toEqual([pair(ana, cara)])
    })
  })

  describe('MERGE_HOUSEHOLD', () => {
    test("moves the constituent and its needs into the candidate's household, keeping both people", async () => {
      const resolved = await resolveMatch({ action: 'MERGE_HOUSEHOLD' })
      expect(resolved).toMatchObject({
        status: 'RESOLVED',
        action: 'MERGE_HOUSEHOLD',
        resolvedBy: world.admin.memberId,
        resolvedAt: world.clock.now(),
      })
      expect(await storedConstituent(world, anna.id)).toEqual({ ...anna, householdId: ana.householdId, updatedAt: world.clock.now() })
      expect(await storedConstituent(world, ana.id)).toEqual(ana)
      expect(await storedNeed(world, annasNeed.id)).toMatchObject({ constituentId: anna.id, householdId: ana.householdId })
      expect(await storedNeed(world, anasNeed.id)).toMatchObject({ constituentId: ana.id, householdId: ana.householdId })
    })

    test('removes the household it leaves empty', async () => {
      await resolveMatch({ action: 'MERGE_HOUSEHOLD' })
      expect(await householdExists(world, anna.householdId)).toBe(false)
    })

    test('moves only the constituent: the rest of its household stays where it was', async () => {
      const sibling = await register(world, { firstName: 'Sol' }, anna.householdId)
      await resolveMatch({ action: 'MERGE_HOUSEHOLD' })
      expect((await storedConstituent(world, sibling.id))!.householdId).toBe(anna.householdId)
      expect(await householdExists(world, anna.householdId)).toBe(true)
    })

    test('stores the match resolved', async () => {
      await resolveMatch({ action: 'MERGE_HOUSEHOLD' })
      expect(await storedMatch()).toMatchObject({ status: 'RESOLVED', action: 'MERGE_HOUSEHOLD' })
    })
  })

  describe('DISMISS', () => {
    test('marks the match dismissed and changes nothing else', async () => {
      const resolved = await resolveMatch({ action: 'DISMISS' })
      expect(resolved).toEqual({
        ...match,
        status: 'DISMISSED',
        action: 'DISMISS',
        resolvedAt: world.clock.now(),
        resolvedBy: world.admin.memberId,
      })
      expect(await storedMatch()).toEqual(resolved)
      expect(await storedConstituent(world, anna.id)).toEqual(anna)
      expect(await storedConstituent(world, ana.id)).toEqual(ana)
      expect((await storedNeed(world, annasNeed.id))!.householdId).toBe(anna.householdId)
    })

    test('refuses fieldOverrides or a targetConstituentId, which only a merge takes', async () => {
      for (const input of [
        { action: 'DISMISS', fieldOverrides: { firstName: 'X' } },
        { action: 'DISMISS', targetConstituentId: ana.id },
        { action: 'MERGE_HOUSEHOLD', targetConstituentId: ana.id },
      ] as const) {
        await failureOf(resolveMatch(input), InvalidError)
      }
      expect(await storedMatch()).toEqual(match)
    })
  })

  describe('a match resolved already', () => {
    test.each([
      ['DISMISS', 'MERGE_CONSTITUENT'],
      ['MERGE_HOUSEHOLD', 'DISMISS'],
      ['MERGE_CONSTITUENT', 'MERGE_CONSTITUENT'],
      ['DISMISS', 'DISMISS'],
    ] as const)('refuses a second resolve (%s, then %s) with a conflict and keeps the first', async (first, second) => {
      const resolved = await resolveMatch({ action: first })
      world.clock.advance(60_000)
      await failureOf(resolveMatch({ action: second }), ConflictError)
      expect(await storedMatch()).toEqual(resolved)
    })
  })

  test('answers Household match not found for an unknown id or one of another organization', async () => {
    const other = await world.otherOrganization()
    for (const [actor, id] of [
      [world.admin, crypto.randomUUID()],
      [other.admin, match.id],
    ] as const) {
      const error = await failureOf(resolve.execute(actor, id, { action: 'DISMISS' }), NotFoundError)
      expect(error.resource).toBe('Household match')
      expect(error.message).toBe('Household match not found')
    }
    expect(await storedMatch()).toEqual(match)
  })

  describe('who may resolve', () => {
    test('a member with duplicate_resolver may', async () => {
      const resolver = await world.member('staff', { profiles: ['duplicate_resolver'] })
      expect((await resolve.execute(resolver, match.id, { action: 'DISMISS' })).resolvedBy).toBe(resolver.memberId)
    })

    test('no one else may', async () => {
      for (const actor of [
        await world.member('staff', { profiles: ['intake_staff', 'pii_reader'] }),
        await world.member('partner_admin', { partnerId: world.defaultPartner.id }),
      ]) {
        await failureOf(resolve.execute(actor, match.id, { action: 'DISMISS' }), ForbiddenError)
      }
      expect(await storedMatch()).toEqual(match)
    })
  })
})
