import { describe, expect, test } from 'bun:test'
import { api, loginPair, newMember, openAuthServer, type TokenPair } from './auth-support'
import { claimsOf, expectBadRequest, expectProblem } from './helpers'

// docs/api/access.md "Tokens" (refresh tokens rotate, and a reused one ends its session) over real HTTP;
// docs/api/conventions.md "Errors" for the error answers.
openAuthServer()

describe('POST /api/auth/refresh', () => {
  test('rotates: a new pair works, the old refresh token stops working', async () => {
    const { actor, email } = await newMember()
    const first = await loginPair(email)

    const refreshed = await api.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.tokenType).toBe('Bearer')
    expect(refreshed.body.expiresIn).toBe(900)
    expect(refreshed.body.refreshToken).not.toBe(first.refreshToken)
    expect(refreshed.body.accessToken).not.toBe(first.accessToken)
    expect(claimsOf(refreshed.body.accessToken).sub).toBe(actor.memberId)
    expect((await api.call('GET', '/api/needs', { token: refreshed.body.accessToken })).status).toBe(200)

    const again = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: refreshed.body.refreshToken } })
    expect(again.status).toBe(200)
  })

  test('reusing a rotated token revokes the whole chain, and the access tokens of that session with it', async () => {
    const { email } = await newMember()
    const first = await loginPair(email)
    const second = await api.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })
    expect(second.status).toBe(200)
    expect((await api.call('GET', '/api/needs', { token: first.accessToken })).status).toBe(200)

    const replay = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })
    expectProblem(replay, 401, 'Unauthorized')
    // The thief's replay also ends the legitimate holder's session.
    const legitimate = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: second.body.refreshToken } })
    expectProblem(legitimate, 401, 'Unauthorized')
    for (const accessToken of [first.accessToken, second.body.accessToken]) {
      const refused = await api.call('GET', '/api/needs', { token: accessToken })
      expectProblem(refused, 401, 'Unauthorized')
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"')
    }
  })

  test('other sessions of the same member survive a reuse in one chain', async () => {
    const { email } = await newMember()
    const sessionA = await loginPair(email)
    const sessionB = await loginPair(email)
    await api.call('POST', '/api/auth/refresh', { body: { refreshToken: sessionA.refreshToken } })
    await api.call('POST', '/api/auth/refresh', { body: { refreshToken: sessionA.refreshToken } })

    const b = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: sessionB.refreshToken } })
    expect(b.status).toBe(200)
  })

  test('an unknown refresh token is a 401', async () => {
    expectProblem(await api.call('POST', '/api/auth/refresh', { body: { refreshToken: 'x'.repeat(43) } }), 401, 'Unauthorized')
  })

  test('an access token is not a refresh token', async () => {
    const { email } = await newMember()
    const pair = await loginPair(email)
    expectProblem(await api.call('POST', '/api/auth/refresh', { body: { refreshToken: pair.accessToken } }), 401, 'Unauthorized')
  })

  test.each([
    ['no refreshToken', {}, '/refreshToken'],
    ['an empty refreshToken', { refreshToken: '' }, '/refreshToken'],
    ['a refreshToken of the wrong type', { refreshToken: 42 }, '/refreshToken'],
    ['a refreshToken over 512 characters', { refreshToken: 'x'.repeat(513) }, '/refreshToken'],
    ['an unknown property', { refreshToken: 'abc', extra: 1 }, '/extra'],
  ])('%s is a 400', async (_label, body, field) => {
    expectBadRequest(await api.call('POST', '/api/auth/refresh', { body }), field)
  })
})
