import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD } from '../../support/world'
import { expectBadRequest, expectProblem } from './helpers'

// docs/api/access.md "Members and invitations": POST /api/profile/password over real HTTP, on SQLite and PostgreSQL.
const NEW_PASSWORD = 'a password of my own choosing'
type TokenPair = { accessToken: string; refreshToken: string }

let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

async function staffMember(): Promise<{ email: string; token: string }> {
  const token = await api.tokenFor(api.world, 'staff')
  return { token, email: (await api.call<{ email: string }>('GET', '/api/profile', { token })).body.email }
}
const logIn = (email: string, password: string) => api.call<TokenPair>('POST', '/api/auth/login', { body: { email, password } })
const change = (token: string, body: unknown) => api.call('POST', '/api/profile/password', { token, body })

describe('POST /api/profile/password', () => {
  test('204: the new password logs in, the old one not; every session ends; the audit trail says so', async () => {
    const { email, token } = await staffMember()
    const other = (await logIn(email, TEST_PASSWORD)).body
    const response = await change(token, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })
    expect(response.status).toBe(204)
    expect(response.headers.get('ratelimit-policy')).toStartWith('"auth";')
    expect((await logIn(email, TEST_PASSWORD)).status).toBe(401)
    const fresh = await logIn(email, NEW_PASSWORD)
    expect(fresh.status).toBe(200)
    // The sessions opened with the old password are over: the asking one's access token and another's refresh token.
    expect((await api.call('GET', '/api/profile', { token })).status).toBe(401)
    expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: other.refreshToken } })).status).toBe(401)
    const admin = await api.tokenFor(api.world, 'org_admin')
    const me = (await api.call<{ id: string }>('GET', '/api/profile', { token: fresh.body.accessToken })).body.id
    const events = await api.call<Array<{ memberId: string; recordId: string; fields?: string[] }>>(
      'GET',
      '/api/audit-events?action=change_password',
      { token: admin },
    )
    expect(events.body.filter((e) => e.recordId === me).map((e) => ({ memberId: e.memberId, fields: e.fields }))).toEqual([
      { memberId: me, fields: ['password'] },
    ])
  })

  test.each([
    ['a wrong current password', { currentPassword: 'not my password at all', newPassword: NEW_PASSWORD }, '/currentPassword'],
    ['a short new password', { currentPassword: TEST_PASSWORD, newPassword: 'short' }, '/newPassword'],
    ['no current password', { newPassword: NEW_PASSWORD }, '/currentPassword'],
    ['an unknown field', { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, email: 'x@example.org' }, '/email'],
  ])('%s is 400 naming the field, and the password stays', async (_name, body, field) => {
    const { email, token } = await staffMember()
    expectBadRequest(await change(token, body), field)
    expect((await logIn(email, TEST_PASSWORD)).status).toBe(200)
  })

  test('without a token 401', async () => {
    expectProblem(
      await api.call('POST', '/api/profile/password', { body: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD } }),
      401,
      'Unauthorized',
    )
  })
})

describe('POST /api/profile/password under the auth rate limit', () => {
  test('guessing the current password meets the limit login meets: 429 with Retry-After', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT: '3' })
    try {
      const token = await limited.tokenFor(limited.world, 'staff')
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) {
        const response = await limited.call('POST', '/api/profile/password', {
          token,
          body: { currentPassword: `guess number ${i} wrong`, newPassword: NEW_PASSWORD },
        })
        statuses.push(response.status)
        if (response.status === 429) {
          expectProblem(response, 429, 'Too many requests')
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        }
      }
      // One request of the quota went to the login that made the token.
      expect(statuses).toEqual([400, 400, 429, 429])
    } finally {
      await limited.stop()
    }
  })
})
