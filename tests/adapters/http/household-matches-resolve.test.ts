import { uniqueEmail, uniqueName, uniquePhone } from '../../support/builders'
import { describe, expect, test } from 'bun:test'
import { claimsOf, expectBadRequest, expectProblem, ISO_MS, UNKNOWN_ID } from './helpers'
import { api, ids, openMatchesServer, tokens } from './household-matches-support'
import { allMatches, aPair, type Constituent, createNeed, type Match, matchesOf, readNeed, register } from './household-matches-support'
import { resolve, search } from './household-matches-support'

// docs/constituents.md (resolution), docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": deciding a
// household match, over
// real HTTP. A decision may merge people or households for good, so it is taken once, by whom the contract
// allows, and a refused one changes nothing.
openMatchesServer()

describe('POST /api/household-matches/{id}/resolve', () => {
  test('DISMISS: 200 with the dismissed match; both constituents stay as they were', async () => {
    const { candidate, constituent, match } = await aPair()
    const response = await resolve(match.id, { action: 'DISMISS' })
    expect(response.status).toBe(200)
    // The resolver may read names only: both people come back as it sees them.
    const names = (c: Constituent) => ({ id: c.id, householdId: c.householdId, firstName: c.firstName, lastName: c.lastName })
    expect(response.body).toEqual({
      ...match,
      constituent: names(constituent),
      candidate: names(candidate),
      status: 'DISMISSED',
      action: 'DISMISS',
      resolvedAt: expect.stringMatching(ISO_MS),
      resolvedBy: claimsOf(tokens.resolver).sub,
    })
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await search(constituent.lastName!)).toEqual([constituent])
    expect(ids(await allMatches('DISMISSED'))).toContain(match.id)
    expect(ids(await allMatches('OPEN'))).not.toContain(match.id)
  })

  test("MERGE_HOUSEHOLD: the constituent joins the candidate's household, its needs too; both remain", async () => {
    const { candidate, constituent, match } = await aPair()
    const need = await createNeed({ constituentId: constituent.id })
    const response = await resolve(match.id, { action: 'MERGE_HOUSEHOLD' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      id: match.id,
      status: 'RESOLVED',
      action: 'MERGE_HOUSEHOLD',
      resolvedBy: claimsOf(tokens.resolver).sub,
    })
    expect(response.body.resolvedAt).toMatch(ISO_MS)

    expect(await search(constituent.lastName!)).toEqual([{ ...constituent, householdId: candidate.householdId }])
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await readNeed(need.id)).toMatchObject({ constituentId: constituent.id, householdId: candidate.householdId })
  })

  test('MERGE_CONSTITUENT: by default the constituent merges into the candidate, needs and all', async () => {
    const { candidate, constituent, match } = await aPair()
    const need = await createNeed({ constituentId: constituent.id })
    const response = await resolve(match.id, { action: 'MERGE_CONSTITUENT' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ id: match.id, status: 'RESOLVED', action: 'MERGE_CONSTITUENT' })

    expect(await search(constituent.lastName!)).toEqual([])
    expectProblem(await api.call('GET', `/api/constituents/${constituent.id}/needs`, { token: tokens.admin }), 404, 'Not found')
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await readNeed(need.id)).toMatchObject({ constituentId: candidate.id, householdId: candidate.householdId })
  })

  test('MERGE_CONSTITUENT with targetConstituentId and fieldOverrides: the other one merges into the target, which takes the overrides', async () => {
    const { candidate, constituent, match } = await aPair()
    const need = await createNeed({ constituentId: candidate.id })
    const response = await resolve(match.id, {
      action: 'MERGE_CONSTITUENT',
      targetConstituentId: constituent.id,
      fieldOverrides: { firstName: 'Merged', addressCity: 'Albany', email: null },
    })
    expect(response.status).toBe(200)
    expect(response.body.status).toBe('RESOLVED')

    expect(await search(candidate.lastName!)).toEqual([])
    const { email: _cleared, ...kept } = constituent
    expect(await search(constituent.lastName!)).toEqual([{ ...kept, firstName: 'Merged', addressCity: 'Albany' }])
    expect(await readNeed(need.id)).toMatchObject({ constituentId: constituent.id, householdId: constituent.householdId })
  })

  test("a manual merge resolves the pair's open match; the open matches of the removed constituent follow the target", async () => {
    const phone = uniquePhone()
    const a = await register({ firstName: 'A', lastName: uniqueName(), phone })
    const b = await register({ firstName: 'B', lastName: uniqueName(), phone })
    const c = await register({ firstName: 'C', lastName: uniqueName(), phone })
    const d = await register({ firstName: 'D', lastName: uniqueName(), email: uniqueEmail() })
    await api.call('PUT', `/api/constituents/${d.id}`, { token: tokens.admin, body: { phone } })
    const pairOf = (m: Match) => [m.constituentId, m.candidateConstituentId].sort().join()
    const ab = (await matchesOf(b.id)).find((m) => pairOf(m) === [a.id, b.id].sort().join())!
    expect(ab.status).toBe('OPEN')

    const response = await api.call('POST', '/api/constituents/merge', {
      token: tokens.resolver,
      body: { sourceConstituentId: b.id, targetConstituentId: a.id },
    })
    expect(response.status).toBe(200)

    // The merged pair's match records the merge; no open match names the removed constituent.
    expect(await matchesOf(b.id)).toEqual([
      {
        ...ab,
        constituent: undefined,
        status: 'RESOLVED',
        action: 'MERGE_CONSTITUENT',
        resolvedAt: expect.stringMatching(ISO_MS),
        resolvedBy: claimsOf(tokens.resolver).sub,
      },
    ])
    const open = await matchesOf(a.id, 'OPEN')
    const pairs = open.map(pairOf)
    expect(pairs.sort()).toEqual([[a.id, c.id].sort().join(), [a.id, d.id].sort().join()].sort())
    for (const match of open) expect([match.constituentId, match.candidateConstituentId]).not.toContain(b.id)
  })

  test('resolving a match a second time is 409 Conflict, whatever the action, and the first decision stands', async () => {
    const { match } = await aPair()
    const first = await resolve(match.id, { action: 'DISMISS' })
    expect(first.status).toBe(200)
    for (const body of [{ action: 'DISMISS' }, { action: 'MERGE_HOUSEHOLD' }, { action: 'MERGE_CONSTITUENT' }]) {
      expectProblem(await resolve(match.id, body), 409, 'Conflict')
    }
    expect((await allMatches('DISMISSED', tokens.resolver)).find((m) => m.id === match.id)).toEqual(first.body)

    const merged = await aPair()
    expect((await resolve(merged.match.id, { action: 'MERGE_CONSTITUENT' })).status).toBe(200)
    expectProblem(await resolve(merged.match.id, { action: 'DISMISS' }), 409, 'Conflict')
  })

  test("a targetConstituentId outside the match's pair is a 400, and nothing happens", async () => {
    const { candidate, constituent, match } = await aPair()
    const stranger = await register({ firstName: 'Stranger', lastName: uniqueName() })
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName() }, tokens.otherAdmin)
    for (const targetConstituentId of [stranger.id, theirs.id, UNKNOWN_ID]) {
      expectBadRequest(await resolve(match.id, { action: 'MERGE_CONSTITUENT', targetConstituentId }), '/targetConstituentId')
    }
    expect((await matchesOf(constituent.id))[0]).toEqual(match)
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await search(constituent.lastName!)).toEqual([constituent])
  })

  test('targetConstituentId or fieldOverrides with another action than MERGE_CONSTITUENT is a 400', async () => {
    const { candidate, match } = await aPair()
    for (const action of ['DISMISS', 'MERGE_HOUSEHOLD']) {
      expectBadRequest(await resolve(match.id, { action, targetConstituentId: candidate.id }), '/action')
      expectBadRequest(await resolve(match.id, { action, fieldOverrides: { firstName: 'x' } }), '/action')
    }
    expect((await matchesOf(candidate.id))[0]!.status).toBe('OPEN')
  })

  test.each([
    ['an unknown action', { action: 'MERGE' }, '/action'],
    ['a lower-case action', { action: 'dismiss' }, '/action'],
    ['no action', {}, '/action'],
    ['an action of the wrong type', { action: 1 }, '/action'],
    ['an unknown property', { action: 'DISMISS', reason: 'not them' }, '/reason'],
    ['a malformed targetConstituentId', { action: 'MERGE_CONSTITUENT', targetConstituentId: 'abc' }, '/targetConstituentId'],
    [
      'a fieldOverrides phone that is not E.164',
      { action: 'MERGE_CONSTITUENT', fieldOverrides: { phone: '555-1234' } },
      '/fieldOverrides/phone',
    ],
    [
      "a fieldOverrides dateOfBirth '2023-13-01'",
      { action: 'MERGE_CONSTITUENT', fieldOverrides: { dateOfBirth: '2023-13-01' } },
      '/fieldOverrides/dateOfBirth',
    ],
    [
      "a fieldOverrides addressState 'ZZ'",
      { action: 'MERGE_CONSTITUENT', fieldOverrides: { addressState: 'ZZ' } },
      '/fieldOverrides/addressState',
    ],
    ['an unknown key in fieldOverrides', { action: 'MERGE_CONSTITUENT', fieldOverrides: { nickname: 'x' } }, '/fieldOverrides/nickname'],
  ])('%s is a 400 naming it, and the match stays open', async (_label, body, field) => {
    const { constituent, match } = await aPair()
    const response = await resolve(match.id, body)
    expect(response.status).not.toBe(422)
    const problem = expectBadRequest(response, field)
    if (field === '/action' && 'action' in body && typeof body.action === 'string') {
      expect(problem.errors!.find((e) => e.path === '/action')!.message).toContain('MERGE_CONSTITUENT, MERGE_HOUSEHOLD, DISMISS')
    }
    expect((await matchesOf(constituent.id))[0]).toEqual(match)
  })

  test('a malformed id is a 400; an unknown id is 404 Household match not found', async () => {
    expectBadRequest(await resolve('not-a-uuid', { action: 'DISMISS' }), 'id')
    expectProblem(await resolve(UNKNOWN_ID, { action: 'DISMISS' }), 404, 'Not found')
  })

  test("another organization's match is 404, exactly as an unknown id, and stays open", async () => {
    const phone = uniquePhone()
    await register({ firstName: 'T1', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const theirs = await register({ firstName: 'T2', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const theirMatch = (await allMatches('OPEN', tokens.otherAdmin)).find((m) => m.constituentId === theirs.id)!
    for (const body of [{ action: 'DISMISS' }, { action: 'MERGE_CONSTITUENT' }, { action: 'MERGE_HOUSEHOLD' }]) {
      const response = await resolve(theirMatch.id, body, tokens.admin)
      expectProblem(response, 404, 'Not found')
      expect(response.body).toEqual((await resolve(UNKNOWN_ID, body, tokens.admin)).body)
    }
    expect((await allMatches('OPEN', tokens.otherAdmin)).find((m) => m.id === theirMatch.id)).toEqual(theirMatch)
    expect(await search(theirs.lastName!, tokens.otherAdmin)).toEqual([theirs])
  })

  test('only org_admin or the duplicate_resolver profile may resolve (403 for the rest)', async () => {
    const { match } = await aPair()
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdmin, tokens.agent, tokens.intakeVolunteer]) {
      expectProblem(await resolve(match.id, { action: 'DISMISS' }, token), 403, 'Forbidden')
    }
    expect((await allMatches('OPEN')).find((m) => m.id === match.id)).toEqual(match)
    const response = await resolve(match.id, { action: 'DISMISS' }, tokens.admin)
    expect(response.status).toBe(200)
    expect(response.body.resolvedBy).toBe(claimsOf(tokens.admin).sub)
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    const { match } = await aPair()
    expectProblem(
      await api.call('POST', `/api/household-matches/${match.id}/resolve`, { body: { action: 'DISMISS' } }),
      401,
      'Unauthorized',
    )
    expectProblem(await api.call('POST', `/api/household-matches/${match.id}/resolve`, { body: { action: 'NOPE' } }), 401, 'Unauthorized')
    expect((await allMatches('OPEN')).find((m) => m.id === match.id)).toEqual(match)
  })
})
