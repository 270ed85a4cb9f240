import { describe, expect, test } from 'bun:test'
import { api, loginPair, newMember, openAuthServer, type TokenPair } from './auth-support'
import { expectBadRequest, expectProblem } from './helpers'

// docs/api/access.md "Tokens" (logging out ends the session, its access tokens with it, and only the caller's own)
// over real HTTP; docs/api/conventions.md "Errors" for the error answers.
openAuthServer()

describe('POST /api/auth/logout', () => {
  test('answers 204 with no body, after which the refresh token is refused', async () => {
    const { email } = await newMember()
    const pair = await loginPair(email)

    const response = await api.call('POST', '/api/auth/logout', { token: pair.accessToken, body: { refreshToken: pair.refreshToken } })
    expect(response.status).toBe(204)
    expect(response.body).toBeUndefined()

    const refresh = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: pair.refreshToken } })
    expectProblem(refresh, 401, 'Unauthorized')
  })

  test('ends the tokens already rotated from the same login', async () => {
    const { email } = await newMember()
    const first = await loginPair(email)
    const second = await api.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })
    // Logging out with the first (rotated) token still ends the chain.
    expect(
      (await api.call('POST', '/api/auth/logout', { token: second.body.accessToken, body: { refreshToken: first.refreshToken } })).status,
    ).toBe(204)
    expectProblem(await api.call('POST', '/api/auth/refresh', { body: { refreshToken: second.body.refreshToken } }), 401, 'Unauthorized')
  })

  test('an unknown refresh token is still 204, and the session goes on', async () => {
    const { email } = await newMember()
    const pair = await loginPair(email)
    const logout = (refreshToken: string) => api.call('POST', '/api/auth/logout', { token: pair.accessToken, body: { refreshToken } })
    expect((await logout('unknown-refresh-token')).status).toBe(204)
    expect((await api.call('GET', '/api/needs', { token: pair.accessToken })).status).toBe(200)
  })

  test('ends the access token too: afterwards it is 401 with an invalid_token challenge; other sessions go on', async () => {
    const { email } = await newMember()
    const pair = await loginPair(email)
    const other = await loginPair(email)
    expect(
      (await api.call('POST', '/api/auth/logout', { token: pair.accessToken, body: { refreshToken: pair.refreshToken } })).status,
    ).toBe(204)

    for (const [method, path] of [
      ['GET', '/api/needs'],
      ['GET', '/api/profile'],
      ['POST', '/api/auth/logout'],
    ] as const) {
      const refused = await api.call(method, path, {
        token: pair.accessToken,
        ...(method === 'POST' ? { body: { refreshToken: pair.refreshToken } } : {}),
      })
      expectProblem(refused, 401, 'Unauthorized')
      expect(refused.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="intake", error="invalid_token", error_description="The session of this access token ended/,
      )
    }
    expect((await api.call('GET', '/api/needs', { token: other.accessToken })).status).toBe(200)
  })

  test("cannot end another member's session, of this or another organization", async () => {
    const caller = await loginPair((await newMember()).email)
    const colleague = await loginPair((await newMember()).email)
    const stranger = await loginPair((await newMember(await api.world.otherOrganization())).email)

    for (const victim of [colleague, stranger]) {
      const response = await api.call('POST', '/api/auth/logout', {
        token: caller.accessToken,
        body: { refreshToken: victim.refreshToken },
      })
      expect(response.status).toBe(204)
      const refresh = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: victim.refreshToken } })
      expect(refresh.status).toBe(200)
    }
  })

  test('needs an access token: 401 without one, and the session stays open', async () => {
    const pair = await loginPair((await newMember()).email)
    expectProblem(await api.call('POST', '/api/auth/logout', { body: { refreshToken: pair.refreshToken } }), 401, 'Unauthorized')
    expect((await api.call('POST', '/api/auth/refresh', { body: { refreshToken: pair.refreshToken } })).status).toBe(200)
  })

  test('an invalid body is a 400 once authenticated', async () => {
    const pair = await loginPair((await newMember()).email)
    expectBadRequest(await api.call('POST', '/api/auth/logout', { token: pair.accessToken, body: {} }), '/refreshToken')
    expectBadRequest(
      await api.call('POST', '/api/auth/logout', { token: pair.accessToken, body: { refreshToken: 'a', all: true } }),
      '/all',
    )
  })
})
