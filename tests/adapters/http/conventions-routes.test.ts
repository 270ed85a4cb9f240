import { describe, expect, test } from 'bun:test'
import { ListPartners } from '../../../src/application/partners/list-partners'
import { admin, api, closedPort, constituentId, erased, matchId, memberId, mergeSource, mergeTarget } from './conventions-support'
import { needId, openConventionsServer, organization, partnerId, smsNeedId } from './conventions-support'
import { expectProblem, UNKNOWN_ID } from './helpers'

// docs/api/conventions.md "Errors" (HTTP conventions) across every route, over real HTTP: who is not let in, and the
// answers that are the same on every route (unknown routes, request ids, unexpected errors, other
// organizations' ids). A new route that needs a token gets its line in `protectedRoutes`.
openConventionsServer()

/** Email settings pointing at a local port nothing listens on: mail sent with them fails at once. */
const emailSettings = () => ({
  provider: 'smtp',
  apiKey: `smtp://user:secret-password@127.0.0.1:${closedPort}`,
  fromEmail: 'desk@example.org',
})

/** Every route that needs a token, with a body it would accept (and the answer with a token when not 200 or 201). */
const protectedRoutes = (): ReadonlyArray<readonly [string, string, unknown, number?]> =>
  [
    ['POST', '/api/auth/logout', { refreshToken: 'x' }],
    ['POST', '/api/needs', { partnerId: api.world.defaultPartner.id }],
    ['GET', '/api/needs', undefined],
    ['GET', `/api/needs/${needId}`, undefined],
    ['PUT', `/api/needs/${needId}`, { status: 'IN_PROGRESS' }],
    ['POST', `/api/needs/${needId}/notes`, { content: 'hello' }],
    ['POST', `/api/needs/${smsNeedId}/sms`, { body: 'hello' }, 202],
    ['GET', `/api/needs/${needId}/interactions`, undefined],
    ['GET', '/api/partners', undefined],
    ['POST', '/api/partners', { name: 'P', slaHours: 1 }],
    ['PUT', `/api/partners/${partnerId}`, { name: 'P' }],
    ['GET', '/api/constituents?query=kept', undefined],
    ['POST', '/api/constituents', { firstName: 'New' }],
    ['PUT', `/api/constituents/${constituentId}`, { lastName: 'Whole' }],
    ['GET', `/api/constituents/${constituentId}/needs`, undefined],
    ['POST', '/api/constituents/merge', { sourceConstituentId: mergeSource, targetConstituentId: mergeTarget }],
    ['POST', `/api/constituents/${erased}/erase`, undefined],
    ['POST', '/api/constituents/duplicate-check', { lastName: 'Whole' }],
    // An import takes CSV: the JSON body here is 415 once the caller is known.
    ['POST', '/api/constituents/import?dryRun=true', { firstName: 'Ana' }, 415],
    ['POST', '/api/needs/import?dryRun=true', { description: 'Food' }, 415],
    ['GET', '/api/household-matches?status=OPEN', undefined],
    ['POST', `/api/household-matches/${matchId}/resolve`, { action: 'DISMISS' }],
    ['GET', '/api/members', undefined],
    ['POST', '/api/members', { email: `m-${crypto.randomUUID().slice(0, 8)}@example.org`, role: 'staff' }],
    ['PUT', `/api/members/${memberId}`, { role: 'staff' }],
    ['GET', '/api/profile', undefined],
    ['PUT', '/api/profile', { fullName: 'Conventions Admin' }],
    ['GET', '/api/organizations/settings', undefined],
    ['PUT', '/api/organizations/settings', { name: organization.name, slug: organization.slug }],
    ['PUT', '/api/organizations/settings/email', emailSettings()],
    ['GET', '/api/organizations/settings/email', undefined],
    // Reaches the provider, which is not there.
    ['POST', '/api/organizations/settings/email/test', { ...emailSettings(), toEmail: 'someone@example.org' }, 502],
  ] as const

describe('401 on every protected route', () => {
  test('no token is a 401 problem on each, whatever the body', async () => {
    for (const [method, path, body] of protectedRoutes()) {
      expectProblem(await api.call(method, path, body === undefined ? {} : { body }), 401, 'Unauthorized')
      if (method !== 'GET') {
        expectProblem(await api.call(method, path, { body: { unknown: 'x' } }), 401, 'Unauthorized')
        expectProblem(await api.call(method, path, { raw: '{not json' }), 401, 'Unauthorized')
      }
    }
  })

  test('the same routes answer with a token (the list above is right)', async () => {
    for (const [method, path, body, expected] of protectedRoutes()) {
      if (method === 'POST' && path === '/api/auth/logout') continue
      const response = await api.call(method, path, { token: admin, ...(body === undefined ? {} : { body }) })
      if (expected !== undefined) expect({ method, path, status: response.status }).toEqual({ method, path, status: expected })
      else expect({ method, path, ok: [200, 201].includes(response.status) }).toEqual({ method, path, ok: true })
    }
  })
})

describe('other answers', () => {
  test('an unknown route or method is a 404 problem', async () => {
    expectProblem(await api.call('GET', '/api/nothing-here', { token: admin }), 404, 'Not found')
    expectProblem(await api.call('DELETE', `/api/needs/${needId}`, { token: admin }), 404, 'Not found')
    expectProblem(await api.call('GET', '/nothing'), 404, 'Not found')
  })

  test('X-Request-Id is echoed when sensible, generated otherwise, on successes and errors alike', async () => {
    const echoed = await api.call('GET', '/healthz', { headers: { 'x-request-id': 'trace-123.abc_DEF' } })
    expect(echoed.headers.get('x-request-id')).toBe('trace-123.abc_DEF')
    for (const given of [undefined, 'has spaces in it', 'x'.repeat(65), '<script>']) {
      const response = await api.call('GET', '/api/needs', given === undefined ? {} : { headers: { 'x-request-id': given } })
      expect(response.status).toBe(401)
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  test('an unexpected error is a 500 problem that tells nothing of the internals, logged with the request id', async () => {
    const listPartners = api.server.container.get(ListPartners)
    const execute = listPartners.execute
    try {
      listPartners.execute = () => Promise.reject(new Error('SELECT secret FROM internals /srv/app/src/db.ts:42'))
      const response = await api.call('GET', '/api/partners', { token: admin, headers: { 'x-request-id': 'req-500-test' } })
      const body = expectProblem(response, 500, 'Internal server error')
      expect(Object.keys(body).sort()).toEqual(['detail', 'status', 'title', 'type'])
      const text = JSON.stringify(body)
      for (const leak of ['secret', 'internals', 'db.ts', 'stack', ' at ']) expect(text).not.toContain(leak)
      expect(response.headers.get('x-request-id')).toBe('req-500-test')
      const logged = api.logs.map((line) => JSON.parse(line)).find((entry) => entry.requestId === 'req-500-test')
      expect(logged?.error).toContain('SELECT secret FROM internals')
    } finally {
      listPartners.execute = execute
    }
    expect((await api.call('GET', '/api/partners', { token: admin })).status).toBe(200)
  })

  test('cross-organization ids are 404 on every id route, never 403', async () => {
    const other = await api.world.otherOrganization()
    const stranger = await api.tokenFor(other, 'org_admin')
    const routes = [
      ['GET', `/api/needs/${needId}`, undefined, 'Need not found'],
      ['PUT', `/api/needs/${needId}`, { status: 'ESCALATED' }, 'Need not found'],
      ['POST', `/api/needs/${needId}/notes`, { content: 'x' }, 'Need not found'],
      ['POST', `/api/needs/${smsNeedId}/sms`, { body: 'x' }, 'Need not found'],
      ['GET', `/api/needs/${needId}/interactions`, undefined, 'Need not found'],
      ['PUT', `/api/partners/${partnerId}`, { name: 'x' }, 'Partner not found'],
      ['PUT', `/api/partners/${api.world.defaultPartner.id}`, { isArchived: true }, 'Partner not found'],
      ['PUT', `/api/constituents/${constituentId}`, { firstName: 'Stolen' }, 'Constituent not found'],
      ['GET', `/api/constituents/${constituentId}/needs`, undefined, 'Constituent not found'],
      ['POST', `/api/household-matches/${matchId}/resolve`, { action: 'DISMISS' }, 'Household match not found'],
      ['PUT', `/api/members/${memberId}`, { role: 'org_admin' }, 'Member not found'],
    ] as const
    for (const [method, path, body, detail] of routes) {
      const response = await api.call(method, path, { token: stranger, ...(body ? { body } : {}) })
      expect(expectProblem(response, 404, 'Not found').detail).toBe(detail)
      // The same answer as for an id that does not exist at all.
      const unknown = await api.call(method, path.replace(/[0-9a-f-]{36}/, UNKNOWN_ID), { token: stranger, ...(body ? { body } : {}) })
      expect(unknown.body).toEqual(response.body)
    }
  })
})
