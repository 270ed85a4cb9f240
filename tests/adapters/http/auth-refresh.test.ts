import { describe, expect, test } from 'bun:test'
import { api, loginPair, newMember, openAuthServer, type TokenPair } from './auth-support'
import { startTestServer } from '../../support/http'
import { TEST_PASSWORD } from '../../support/world'
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

    // The holder renews again; then a thief replays the first token (once the token after it was used, even
    // from the same address: not a renewal whose answer was lost).
    const third = await api.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken: second.body.refreshToken } })
    expect(third.status).toBe(200)
    const replay = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })
    expectProblem(replay, 401, 'Unauthorized')
    // The thief's replay also ends the legitimate holder's session.
    const legitimate = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: third.body.refreshToken } })
    expectProblem(legitimate, 401, 'Unauthorized')
    for (const accessToken of [first.accessToken, second.body.accessToken, third.body.accessToken]) {
      const refused = await api.call('GET', '/api/needs', { token: accessToken })
      expectProblem(refused, 401, 'Unauthorized')
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"')
    }
  })

  test('other sessions of the same member survive a reuse in one chain', async () => {
    const { email } = await newMember()
    const sessionA = await loginPair(email)
    const sessionB = await loginPair(email)
    const a2 = await api.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken: sessionA.refreshToken } })
    await api.call('POST', '/api/auth/refresh', { body: { refreshToken: a2.body.refreshToken } })
    expectProblem(await api.call('POST', '/api/auth/refresh', { body: { refreshToken: sessionA.refreshToken } }), 401, 'Unauthorized')

    const b = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: sessionB.refreshToken } })
    expect(b.status).toBe(200)
  })

  test('a renewal whose answer was lost: the same client presenting the old token again is answered, another client is a reuse', async () => {
    // Behind a proxy the service trusts, so that each request can come from an address of its own.
    const proxied = await startTestServer({ TRUST_PROXY: 'true' })
    try {
      const email = (
        await proxied.call<{ email: string }>('GET', '/api/profile', { token: await proxied.tokenFor(proxied.world, 'staff') })
      ).body.email
      const from = (address: string) => ({ headers: { 'x-forwarded-for': address } })
      const renew = (refreshToken: string, address: string) =>
        proxied.call<TokenPair>('POST', '/api/auth/refresh', { body: { refreshToken }, ...from(address) })
      const login = async () =>
        (await proxied.call<TokenPair>('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD }, ...from('198.51.100.7') }))
          .body

      const mine = await login()
      expect((await renew(mine.refreshToken, '198.51.100.7')).status).toBe(200) // its answer lost
      const again = await renew(mine.refreshToken, '198.51.100.7')
      expect(again.status).toBe(200)
      expect((await renew(again.body.refreshToken, '198.51.100.7')).status).toBe(200)

      const stolen = await login()
      const next = await renew(stolen.refreshToken, '198.51.100.7')
      expectProblem(await renew(stolen.refreshToken, '203.0.113.9'), 401, 'Unauthorized')
      expectProblem(await renew(next.body.refreshToken, '198.51.100.7'), 401, 'Unauthorized')
    } finally {
      await proxied.stop()
    }
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
