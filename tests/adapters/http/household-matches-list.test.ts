import { uniqueEmail, uniqueName, uniquePhone } from '../../support/builders'
import { beforeAll, describe, expect, test } from 'bun:test'
import { claimsOf, expectBadRequest, expectProblem, ISO_MS, linksOf, pageOfLink } from './helpers'
import { api, ids, openMatchesServer, other, tokens, world } from './household-matches-support'
import { allMatches, aPair, type Constituent, type Match, matchesOf, register, resolve } from './household-matches-support'

// docs/constituents.md (matches), docs/api/conventions.md "Lists" and docs/api/access.md "Permissions": the list of household matches, over
// real HTTP. Each match must carry enough to be judged without another call, redacted for the caller, and
// only to those who may resolve matches.
openMatchesServer()

describe('GET /api/household-matches', () => {
  let open: Awaited<ReturnType<typeof aPair>>
  let dismissed: Awaited<ReturnType<typeof aPair>>
  let resolved: Awaited<ReturnType<typeof aPair>>
  let theirMatch: Match

  beforeAll(async () => {
    world.clock.advance(60_000)
    open = await aPair()
    dismissed = await aPair()
    resolved = await aPair()
    expect((await resolve(dismissed.match.id, { action: 'DISMISS' })).status).toBe(200)
    expect((await resolve(resolved.match.id, { action: 'MERGE_HOUSEHOLD' })).status).toBe(200)
    const phone = uniquePhone()
    await register({ firstName: 'T1', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const theirs = await register({ firstName: 'T2', lastName: uniqueName(), phone }, tokens.otherAdmin)
    theirMatch = (await allMatches('OPEN', tokens.otherAdmin)).find((m) => m.constituentId === theirs.id)!
  })

  test('filters by status; without one, every match; newest first', async () => {
    const openIds = ids(await allMatches('OPEN'))
    const resolvedIds = ids(await allMatches('RESOLVED'))
    const dismissedIds = ids(await allMatches('DISMISSED'))
    expect(openIds).toContain(open.match.id)
    expect(openIds).not.toContain(dismissed.match.id)
    expect(openIds).not.toContain(resolved.match.id)
    expect(resolvedIds).toContain(resolved.match.id)
    expect(resolvedIds).not.toContain(open.match.id)
    expect(dismissedIds).toContain(dismissed.match.id)
    expect(dismissedIds).not.toContain(resolved.match.id)
    for (const status of ['OPEN', 'RESOLVED', 'DISMISSED'] as const) for (const m of await allMatches(status)) expect(m.status).toBe(status)

    const all = ids(await allMatches())
    expect(all.length).toBe(openIds.length + resolvedIds.length + dismissedIds.length)
    // The three pairs were made in this order, a second apart.
    const positions = [resolved, dismissed, open].map((p) => all.indexOf(p.match.id))
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
  })

  test('each match carries both people and its reasons, enough to judge it without another call', async () => {
    const [listed] = (await allMatches('OPEN')).filter((m) => m.id === open.match.id)
    expect(listed).toMatchObject({
      reason: 'same phone',
      reasons: ['same phone'],
      constituent: open.constituent,
      candidate: open.candidate,
    })

    const phone = uniquePhone()
    const email = uniqueEmail()
    const first = await register({ firstName: 'Rey', lastName: uniqueName(), phone, email })
    const second = await register({ firstName: 'Ray', lastName: uniqueName(), phone, email })
    const [both] = await matchesOf(second.id)
    expect(both).toMatchObject({
      reason: 'same phone, same email',
      reasons: ['same phone', 'same email'],
      constituent: second,
      candidate: first,
    })
  })

  test("the people are redacted as the caller's role requires: names always, contact details only with the permission", async () => {
    const [asResolver] = (await allMatches('OPEN', tokens.resolver)).filter((m) => m.id === open.match.id)
    const names = (c: Constituent) => ({ id: c.id, householdId: c.householdId, firstName: c.firstName, lastName: c.lastName })
    expect(asResolver!.constituent).toEqual(names(open.constituent))
    expect(asResolver!.candidate).toEqual(names(open.candidate))
    expect(asResolver!.reasons).toEqual(['same phone'])
  })

  test('a side merged into another person is absent from the match', async () => {
    const pair = await aPair()
    expect((await resolve(pair.match.id, { action: 'MERGE_CONSTITUENT' })).status).toBe(200)
    const [merged] = (await allMatches('RESOLVED')).filter((m) => m.id === pair.match.id)
    expect(merged!.constituent).toBeUndefined()
    expect(merged!.candidate).toMatchObject({ id: pair.candidate.id, firstName: 'Cand' })
  })

  test('a decided match carries its decision: who, when and what', async () => {
    const [decided] = (await allMatches('DISMISSED')).filter((m) => m.id === dismissed.match.id)
    expect(decided).toEqual({
      ...dismissed.match,
      status: 'DISMISSED',
      action: 'DISMISS',
      resolvedAt: expect.stringMatching(ISO_MS),
      resolvedBy: claimsOf(tokens.resolver).sub,
    })
  })

  test('pages with X-Total-Count and Link headers that keep the status filter', async () => {
    await aPair()
    await aPair()
    const total = (await allMatches('OPEN')).length
    const page1 = await api.call<Match[]>('GET', '/api/household-matches?status=OPEN&limit=1', { token: tokens.admin })
    const page2 = await api.call<Match[]>('GET', '/api/household-matches?status=OPEN&limit=1&page=2', { token: tokens.admin })
    expect(page1.status).toBe(200)
    expect(page1.body).toHaveLength(1)
    expect(page2.body).toHaveLength(1)
    expect(page1.body[0]!.id).not.toBe(page2.body[0]!.id)
    expect(page1.headers.get('x-total-count')).toBe(String(total))
    const links = linksOf(page1)
    expect(pageOfLink(links.next)).toEqual({ page: 2, limit: 1 })
    expect(pageOfLink(links.last)).toEqual({ page: total, limit: 1 })
    expect(new URL(links.next!, 'http://x').searchParams.get('status')).toBe('OPEN')
    expect(new URL(links.next!, 'http://x').pathname).toBe('/api/household-matches')
  })

  test.each([
    ['status=open', 'query/status'],
    ['status=CLOSED', 'query/status'],
    ['status=OPEN,RESOLVED', 'query/status'],
    ['page=x', 'query/page'],
    ['page=0', undefined],
    ['limit=101', undefined],
    ['constituentId=abc', undefined],
  ])('?%s is a 400', async (query, field) => {
    const response = await api.call('GET', `/api/household-matches?${query}`, { token: tokens.admin })
    expect(response.status).not.toBe(422)
    const body = expectBadRequest(response, field)
    if (field === 'query/status')
      expect(body.errors!.find((e) => e.path === 'query/status')!.message).toContain('OPEN, RESOLVED, DISMISSED')
  })

  test('only org_admin or the duplicate_resolver profile may list them (403 for the rest)', async () => {
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdmin, tokens.agent, tokens.intakeVolunteer]) {
      expectProblem(await api.call('GET', '/api/household-matches', { token }), 403, 'Forbidden')
    }
    expect(ids(await allMatches('OPEN', tokens.resolver))).toContain(open.match.id)
  })

  test("another organization's matches never show, and it sees only its own", async () => {
    const mine = await allMatches()
    expect(ids(mine)).not.toContain(theirMatch.id)
    for (const m of mine) expect(m.organizationId).toBe(world.organizationId)
    const theirs = await allMatches(undefined, tokens.otherAdmin)
    expect(ids(theirs)).toContain(theirMatch.id)
    for (const m of theirs) expect(m.organizationId).toBe(other.organizationId)
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', '/api/household-matches'), 401, 'Unauthorized')
    expectProblem(await api.call('GET', '/api/household-matches?status=OPEN'), 401, 'Unauthorized')
  })
})
