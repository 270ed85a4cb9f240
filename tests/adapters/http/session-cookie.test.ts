import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD } from '../../support/world'

// docs/api/access.md "Tokens": browser sessions whose refresh token is an httpOnly cookie, on SQLite and PostgreSQL.
let api: TestServer
let email: string
let slug: string
beforeAll(async () => {
  api = await startTestServer()
  const token = await api.tokenFor(api.world, 'staff')
  email = (await api.call<{ email: string }>('GET', '/api/profile', { token })).body.email
  slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
})
afterAll(() => api.stop())

const JSON_TYPE = { 'content-type': 'application/json' }
const json = async (response: Response) => (await response.json()) as { accessToken: string; errors?: unknown }

async function startSession(server = api) {
  return fetch(`${server.url}/api/auth/session`, {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ email, password: TEST_PASSWORD, organizationSlug: slug }),
  })
}

/** The cookie a Set-Cookie header sets, as a browser would send it back. */
const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0]!

const refreshWith = (cookie: string | undefined, headers: Record<string, string> = JSON_TYPE) =>
  fetch(`${api.url}/api/auth/session/refresh`, { method: 'POST', headers: { ...headers, ...(cookie ? { cookie } : {}) }, body: '{}' })

describe('a browser session', () => {
  test('logging in answers an access token and sets the refresh token as an httpOnly, SameSite=Strict cookie of the session paths', async () => {
    const response = await startSession()
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresIn', 'tokenType'])
    const setCookie = response.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^intake_refresh=[A-Za-z0-9_-]{43}; /)
    expect(setCookie).toContain('; Path=/api/auth/session; HttpOnly; SameSite=Strict; Max-Age=2592000')
    expect(setCookie).not.toContain('Secure') // PUBLIC_BASE_URL is http here
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect((await api.call('GET', '/api/profile', { token: body.accessToken })).status).toBe(200)
  })

  test('the cookie is traded for a new access token and a new cookie; the used one, presented again, ends the session', async () => {
    const first = cookieOf(await startSession())
    const refreshed = await refreshWith(first)
    expect(refreshed.status).toBe(200)
    const second = cookieOf(refreshed)
    expect(second).not.toBe(first)
    expect((await api.call('GET', '/api/profile', { token: (await json(refreshed)).accessToken })).status).toBe(200)
    const third = cookieOf(await refreshWith(second))

    expect((await refreshWith(first)).status).toBe(401) // reuse: the whole session is revoked
    expect((await refreshWith(third)).status).toBe(401)
  })

  test('a renewal whose answer never arrived (a reload in the middle of it): the old cookie still works, the lost one ends the session', async () => {
    const first = cookieOf(await startSession())
    const lost = cookieOf(await refreshWith(first))
    const again = await refreshWith(first)
    expect(again.status).toBe(200)
    expect((await api.call('GET', '/api/profile', { token: (await json(again)).accessToken })).status).toBe(200)
    expect((await refreshWith(lost)).status).toBe(401)
    expect((await refreshWith(cookieOf(again))).status).toBe(401)
  })

  test('refreshing without the cookie, or with one no refresh token could be, is 401', async () => {
    for (const cookie of [undefined, 'intake_refresh=', `intake_refresh=${'a'.repeat(513)}`, 'other=value']) {
      const response = await refreshWith(cookie)
      expect(response.status).toBe(401)
      expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    }
  })

  test('a request that is not application/json is refused (what a form from another site would send)', async () => {
    const cookie = cookieOf(await startSession())
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await refreshWith(cookie, { 'content-type': type })
      expect(response.status).toBe(415)
      expect(await json(response)).toMatchObject({ status: 415, detail: 'Send the request with Content-Type: application/json' })
    }
    const form = await fetch(`${api.url}/api/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ email, password: TEST_PASSWORD, organizationSlug: slug }),
    })
    expect(form.status).toBe(415)
    expect(form.headers.get('set-cookie')).toBeNull()
    // The cookie was not used up by the refused requests.
    expect((await refreshWith(cookie)).status).toBe(200)
  })

  test('logging out ends the session of the cookie and clears it', async () => {
    const login = await startSession()
    const cookie = cookieOf(login)
    const { accessToken } = await json(login)
    const response = await fetch(`${api.url}/api/auth/session/logout`, {
      method: 'POST',
      headers: { ...JSON_TYPE, cookie, authorization: `Bearer ${accessToken}` },
      body: '{}',
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('set-cookie')).toBe('intake_refresh=; Path=/api/auth/session; HttpOnly; SameSite=Strict; Max-Age=0')
    expect((await refreshWith(cookie)).status).toBe(401)
    expect((await api.call('GET', '/api/profile', { token: accessToken })).status).toBe(401)
  })

  test('wrong credentials set no cookie', async () => {
    const response = await fetch(`${api.url}/api/auth/session`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ email, password: 'not the password at all' }),
    })
    expect(response.status).toBe(401)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  test('logging in and refreshing count against AUTH_RATE_LIMIT with the other auth routes: past it 429', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT: '2' })
    try {
      const statuses = []
      statuses.push(
        (await limited.call('POST', '/api/auth/session', { body: { email: 'nobody@example.org', password: 'wrong password here' } }))
          .status,
      )
      statuses.push((await limited.call('POST', '/api/auth/session/refresh', { body: {} })).status)
      const third = await limited.call('POST', '/api/auth/session/refresh', { body: {} })
      statuses.push(third.status)
      expect(statuses).toEqual([401, 401, 429])
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      await limited.stop()
    }
  })

  test('the cookie is Secure when PUBLIC_BASE_URL is https', async () => {
    const secure = await startTestServer({ PUBLIC_BASE_URL: 'https://intake.example.org' })
    try {
      const token = await secure.tokenFor(secure.world, 'staff')
      const own = (await secure.call<{ email: string }>('GET', '/api/profile', { token })).body.email
      const response = await fetch(`${secure.url}/api/auth/session`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ email: own, password: TEST_PASSWORD }),
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('set-cookie')).toEndWith('; Secure')
    } finally {
      await secure.stop()
    }
  })
})
