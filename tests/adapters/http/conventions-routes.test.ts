import { describe, expect, test } from 'bun:test'
import { ListPartners } from '../../../src/application/partners/list-partners'
import { MEMBER_ROUTES, pathWith } from '../../support/routes'
import { admin, api, needId, openConventionsServer } from './conventions-support'
import { expectProblem, UNKNOWN_ID } from './helpers'

// docs/api/conventions.md "Errors" (HTTP conventions) across every route, over real HTTP: who is not let in, and the
// answers that are the same on every route (unknown routes, request ids, unexpected errors; ids in
// paths in id-routes.test.ts). The routes that need a token are those of tests/support/routes.ts; that each answers a member
// allowed to call it, permissions-matrix.test.ts checks.
openConventionsServer()

/** Every route that needs a token (tests/support/routes.ts), at an id no record has: the token is asked for first. */
const protectedRoutes = MEMBER_ROUTES.map((r) => [r.method, pathWith(r, UNKNOWN_ID)] as const)

describe('401 on every protected route', () => {
  test('no token is a 401 problem on each, whatever the body', async () => {
    expect(protectedRoutes.length).toBeGreaterThan(0)
    for (const [method, path] of protectedRoutes) {
      expectProblem(await api.call(method, path), 401, 'Unauthorized')
      if (method !== 'GET') {
        expectProblem(await api.call(method, path, { body: {} }), 401, 'Unauthorized')
        expectProblem(await api.call(method, path, { body: { unknown: 'x' } }), 401, 'Unauthorized')
        expectProblem(await api.call(method, path, { raw: '{not json' }), 401, 'Unauthorized')
      }
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
})
