import { beforeEach, describe, expect, test } from 'bun:test'
import type { ListHouseholdMatches } from '../../../src/application/constituents/list-household-matches'
import type { HouseholdMatch } from '../../../src/domain/constituents/household-match'
import { ForbiddenError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { ALL, register } from './steps'

let world: World
let list: ListHouseholdMatches
// Four matches, each opened a minute after the previous: [oldest … newest].
let matches: HouseholdMatch[]
beforeEach(async () => {
  world = await createWorld()
  list = world.useCases.constituents.listMatches
  for (const phone of ['+15550000001', '+15550000002', '+15550000003', '+15550000004']) {
    await register(world, { phone })
    await register(world, { phone })
  }
  matches = (await list.execute(world.admin, undefined, ALL)).items.reverse()
  const resolve = world.useCases.constituents.resolve
  await resolve.execute(world.admin, matches[1]!.id, { action: 'DISMISS' })
  await resolve.execute(world.admin, matches[2]!.id, { action: 'MERGE_HOUSEHOLD' })
})

const idsOf = (page: { items: HouseholdMatch[] }) => page.items.map((m) => m.id)

describe('ListHouseholdMatches', () => {
  test('lists every match of the organization, newest first', async () => {
    expect(matches).toHaveLength(4)
    expect(idsOf(await list.execute(world.admin, undefined, ALL))).toEqual(matches.map((m) => m.id).reverse())
  })

  test('filters by status', async () => {
    expect(idsOf(await list.execute(world.admin, 'OPEN', ALL))).toEqual([matches[3]!.id, matches[0]!.id])
    expect(idsOf(await list.execute(world.admin, 'DISMISSED', ALL))).toEqual([matches[1]!.id])
    expect(idsOf(await list.execute(world.admin, 'RESOLVED', ALL))).toEqual([matches[2]!.id])
  })

  test('pages the list and tells the total of what matches', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list.execute(world.admin, undefined, { page, limit: 3 })))
    expect(pages.map(idsOf)).toEqual([[matches[3]!.id, matches[2]!.id, matches[1]!.id], [matches[0]!.id], []])
    expect(pages.map((p) => p.total)).toEqual([4, 4, 4])
    const open = await list.execute(world.admin, 'OPEN', { page: 2, limit: 1 })
    expect(open).toEqual({ items: [matches[0]!], total: 2 })
  })

  test("never lists another organization's matches", async () => {
    const other = await world.otherOrganization()
    await register(other, { phone: '+15550000001' })
    await register(other, { phone: '+15550000001' })
    expect((await list.execute(world.admin, undefined, ALL)).total).toBe(4)
    expect((await list.execute(other.admin, undefined, ALL)).items.map((m) => m.organizationId)).toEqual([other.organizationId])
  })

  test('each match carries both people, redacted as the caller may read them', async () => {
    const ada = await register(world, { firstName: 'Ada', lastName: 'Byron', phone: '+15550000009', email: 'ada@example.org' })
    const augusta = await register(world, { firstName: 'Augusta', lastName: 'Byron', phone: '+15550000009' })
    const [newest] = (await list.execute(world.admin, 'OPEN', ALL)).items
    expect(newest).toMatchObject({ constituent: augusta, candidate: ada })

    const resolver = await world.member('staff', { profiles: ['duplicate_resolver'] })
    const [asResolver] = (await list.execute(resolver, 'OPEN', ALL)).items
    const { phone: _p, email: _e, ...adaNamesOnly } = ada
    expect(asResolver!.candidate).toEqual(adaNamesOnly)
    expect(asResolver!.constituent).not.toHaveProperty('phone')
  })

  test('a side merged into another person is absent', async () => {
    await world.useCases.constituents.resolve.execute(world.admin, matches[0]!.id, { action: 'MERGE_CONSTITUENT' })
    const merged = (await list.execute(world.admin, 'RESOLVED', ALL)).items.find((m) => m.id === matches[0]!.id)
    expect(merged?.constituent).toBeUndefined()
    expect(merged?.candidate?.id).toBe(matches[0]!.candidateConstituentId)
  })

  test('a member with duplicate_resolver may list', async () => {
    const resolver = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['duplicate_resolver'] })
    expect((await list.execute(resolver, 'OPEN', ALL)).total).toBe(2)
  })

  test('no one else may, staff and partner_admin included', async () => {
    for (const actor of [
      await world.member('staff', { profiles: ['intake_staff', 'pii_reader'] }),
      await world.member('partner_admin', { partnerId: world.defaultPartner.id }),
    ]) {
      await failureOf(list.execute(actor, undefined, ALL), ForbiddenError)
    }
  })
})
