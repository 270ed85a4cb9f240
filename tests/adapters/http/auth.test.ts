import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Role } from '../../../src/domain/auth/roles'
import type { Member } from '../../../src/domain/members/member'
import { PORTS } from '../../../src/main/container'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD, type World } from '../../support/world'
import { claimsOf, expectBadRequest, expectProblem, forgeToken, jwtSecretOf } from './helpers'

// docs/api.md "Tokens" (tokens) over real HTTP; docs/api.md "Errors" for the error answers.
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

interface TokenPair {
  accessToken: string
  refreshToken: string
  tokenType: string
  expiresIn: number
}

/** A member with the test password; answers its email and organization slug. */
async function newMember(world: World = api.world, role: Role = 'staff', extra: Partial<Member> = {}) {
  const passwordHash = await api.server.container.get(PORTS.passwords).hash(TEST_PASSWORD)
  const actor = await world.member(role, { passwordHash, ...extra })
  const member = await world.repositories.members.findById(actor.organizationId, actor.memberId)
  const organization = await world.repositories.organizations.findById(actor.organizationId)
  return { actor, email: member!.email, slug: organization!.slug }
}

function login(body: Record<string, unknown>) {
  return api.call<TokenPair>('POST', '/api/auth/login', { body })
}

async function loginPair(email: string): Promise<TokenPair> {
  const response = await login({ email, password: TEST_PASSWORD })
  expect(response.status).toBe(200)
  return response.body
}

describe('POST /api/auth/login', () => {
  test('answers 200 with a Bearer pair whose access token is an HS256 JWT for 900 s', async () => {
    const { actor, email } = await newMember()
    const response = await login({ email, password: TEST_PASSWORD })

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(Object.keys(response.body).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'tokenType'])
    expect(response.body.tokenType).toBe('Bearer')
    expect(response.body.expiresIn).toBe(900)
    expect(response.body.refreshToken.length).toBeGreaterThanOrEqual(32)
    const header = JSON.parse(Buffer.from(response.body.accessToken.split('.')[0]!, 'base64url').toString())
    expect(header.alg).toBe('HS256')
    const claims = claimsOf(response.body.accessToken)
    expect(claims).toMatchObject({ sub: actor.memberId, org: actor.organizationId })
    expect(claims.exp - claims.iat).toBe(900)
    expect(typeof claims.jti).toBe('string')

    const partners = await api.call('GET', '/api/partners', { token: response.body.accessToken })
    expect(partners.status).toBe(200)
  })

  test('matches the email whatever its case and surrounding spaces', async () => {
    const { email } = await newMember()
    const response = await login({ email: `  ${email.toUpperCase()} `, password: TEST_PASSWORD })
    expect(response.status).toBe(200)
  })

  test('a wrong password and an unknown email get the same 401', async () => {
    const { email } = await newMember()
    const wrongPassword = await login({ email, password: 'not the right password' })
    const unknownEmail = await login({ email: `nobody-${randomUUID()}@example.org`, password: TEST_PASSWORD })

    const a = expectProblem(wrongPassword, 401, 'Unauthorized')
    const b = expectProblem(unknownEmail, 401, 'Unauthorized')
    expect(a).toEqual(b)
  })

  test('an unconfirmed member and a member without a password cannot log in', async () => {
    const unconfirmed = await newMember(api.world, 'staff', { isConfirmed: false })
    expectProblem(await login({ email: unconfirmed.email, password: TEST_PASSWORD }), 401, 'Unauthorized')

    const noPassword = await api.world.member('staff')
    const member = await api.world.repositories.members.findById(noPassword.organizationId, noPassword.memberId)
    expectProblem(await login({ email: member!.email, password: TEST_PASSWORD }), 401, 'Unauthorized')
  })

  test('an email in several organizations needs organizationSlug, which picks the organization', async () => {
    const other = await api.world.otherOrganization()
    const email = `shared-${randomUUID().slice(0, 8)}@example.org`
    const here = await newMember(api.world, 'staff', { email })
    const there = await newMember(other, 'staff', { email })

    const ambiguous = await login({ email, password: TEST_PASSWORD })
    expectBadRequest(ambiguous, '/organizationSlug')

    const picked = await login({ email, password: TEST_PASSWORD, organizationSlug: there.slug })
    expect(picked.status).toBe(200)
    expect(claimsOf(picked.body.accessToken).org).toBe(other.organizationId)
    const pickedHere = await login({ email, password: TEST_PASSWORD, organizationSlug: here.slug })
    expect(claimsOf(pickedHere.body.accessToken).org).toBe(api.world.organizationId)

    expectProblem(await login({ email, password: TEST_PASSWORD, organizationSlug: 'no-such-org' }), 401, 'Unauthorized')
  })

  test.each([
    ['a missing password', { email: 'a@example.org' }, '/password'],
    ['a password of the wrong type', { email: 'a@example.org', password: 123456789012 }, '/password'],
    ['an unknown property', { email: 'a@example.org', password: TEST_PASSWORD, remember: true }, '/remember'],
    ['an empty email', { email: '', password: TEST_PASSWORD }, '/email'],
    ['an email over 254 characters', { email: `${'a'.repeat(250)}@example.org`, password: TEST_PASSWORD }, '/email'],
  ])('%s is a 400', async (_label, body, field) => {
    expectBadRequest(await login(body), field)
  })

  test('malformed JSON is a 400, never a 422', async () => {
    const response = await api.call('POST', '/api/auth/login', {
      raw: '{"email": "a@example.org", ',
      headers: { 'content-type': 'application/json' },
    })
    expectBadRequest(response)
  })
})

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

describe('bearer tokens on a protected route', () => {
  const get = (authorization?: string) => api.call('GET', '/api/needs', authorization === undefined ? {} : { headers: { authorization } })

  function claimsFor(memberId: string, organizationId: string, sessionId: string = randomUUID(), ttlSeconds = 900) {
    const iat = Math.floor(api.world.clock.now().getTime() / 1000)
    return { sub: memberId, org: organizationId, sid: sessionId, iat, exp: iat + ttlSeconds, jti: randomUUID() }
  }
  /** A member logged in, and the session id its login started. */
  async function loggedIn() {
    const { actor, email } = await newMember()
    return { actor, sessionId: claimsOf((await loginPair(email)).accessToken).sid }
  }
  /** A 401 whose WWW-Authenticate says invalid_token, and why. */
  function expectInvalidToken(response: Awaited<ReturnType<typeof get>>, description: RegExp) {
    const body = expectProblem(response, 401, 'Unauthorized')
    const challenge = response.headers.get('www-authenticate') ?? ''
    expect(challenge).toStartWith('Bearer realm="intake", error="invalid_token", error_description="')
    expect(/error_description="([^"]*)"/.exec(challenge)?.[1]).toMatch(description)
    expect(body.detail).toMatch(description)
  }
  const FORGED = /^The access token is malformed or its signature is not valid$/

  test('a token signed with the server secret is accepted (the forging below is sound)', async () => {
    const { actor, sessionId } = await loggedIn()
    const token = forgeToken(jwtSecretOf(api), claimsFor(actor.memberId, actor.organizationId, sessionId))
    expect((await get(`Bearer ${token}`)).status).toBe(200)
  })

  test('an expired token is a 401 whose challenge says it expired', async () => {
    const { actor, sessionId } = await loggedIn()
    const iat = Math.floor(api.world.clock.now().getTime() / 1000) - 1000
    const token = forgeToken(jwtSecretOf(api), {
      sub: actor.memberId,
      org: actor.organizationId,
      sid: sessionId,
      iat,
      exp: iat + 900,
      jti: randomUUID(),
    })
    expectInvalidToken(await get(`Bearer ${token}`), /^The access token expired/)
  })

  test('a token signed with another secret is a 401 that says so, also when it claims to be expired', async () => {
    const { actor, sessionId } = await loggedIn()
    const token = forgeToken('another-secret-that-is-long-enough-to-sign', claimsFor(actor.memberId, actor.organizationId, sessionId))
    expectInvalidToken(await get(`Bearer ${token}`), FORGED)
    const expired = forgeToken(
      'another-secret-that-is-long-enough-to-sign',
      claimsFor(actor.memberId, actor.organizationId, sessionId, -10),
    )
    expectInvalidToken(await get(`Bearer ${expired}`), FORGED)
  })

  test('a well-signed token of a session that was never started is a 401 saying the session ended', async () => {
    const { actor } = await loggedIn()
    expectInvalidToken(
      await get(`Bearer ${forgeToken(jwtSecretOf(api), claimsFor(actor.memberId, actor.organizationId))}`),
      /^The session of this access token ended/,
    )
  })

  test('an alg:none token is a 401, with or without a signature part', async () => {
    const { actor } = await newMember()
    const unsigned = forgeToken('', claimsFor(actor.memberId, actor.organizationId), { alg: 'none', typ: 'JWT' })
    expectProblem(await get(`Bearer ${unsigned}`), 401, 'Unauthorized')
    // A none header carrying a valid HS256 signature of itself is refused too.
    const signedNone = forgeToken(jwtSecretOf(api), claimsFor(actor.memberId, actor.organizationId), { alg: 'none', typ: 'JWT' })
    expectProblem(await get(`Bearer ${signedNone}`), 401, 'Unauthorized')
  })

  test('a token with another algorithm in its header is a 401', async () => {
    const { actor } = await newMember()
    const token = forgeToken(jwtSecretOf(api), claimsFor(actor.memberId, actor.organizationId), { alg: 'HS512', typ: 'JWT' })
    expectProblem(await get(`Bearer ${token}`), 401, 'Unauthorized')
  })

  test('a tampered payload is a 401', async () => {
    const { email } = await newMember()
    const victim = await newMember(api.world, 'org_admin')
    const [header, , signature] = (await loginPair(email)).accessToken.split('.')
    const payload = Buffer.from(JSON.stringify(claimsFor(victim.actor.memberId, victim.actor.organizationId))).toString('base64url')
    expectProblem(await get(`Bearer ${header}.${payload}.${signature}`), 401, 'Unauthorized')
  })

  test('a well-signed token for an unknown member, or for a member under another organization, is a 401', async () => {
    const { actor, sessionId } = await loggedIn()
    const other = await api.world.otherOrganization()
    expectProblem(
      await get(`Bearer ${forgeToken(jwtSecretOf(api), claimsFor(randomUUID(), actor.organizationId, sessionId))}`),
      401,
      'Unauthorized',
    )
    expectProblem(
      await get(`Bearer ${forgeToken(jwtSecretOf(api), claimsFor(actor.memberId, other.organizationId, sessionId))}`),
      401,
      'Unauthorized',
    )
  })

  test('a token of a member who is no longer confirmed stops working at once', async () => {
    const { actor, email } = await newMember()
    const pair = await loginPair(email)
    expect((await get(`Bearer ${pair.accessToken}`)).status).toBe(200)
    const member = await api.world.repositories.members.findById(actor.organizationId, actor.memberId)
    await api.server.container.get(PORTS.unitOfWork).run((r) => r.members.update({ ...member!, isConfirmed: false }))
    expectProblem(await get(`Bearer ${pair.accessToken}`), 401, 'Unauthorized')
    expectProblem(await api.call('POST', '/api/auth/refresh', { body: { refreshToken: pair.refreshToken } }), 401, 'Unauthorized')
  })

  test.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['another scheme', 'Basic YWRtaW46cGFzc3dvcmQ='],
  ])('%s is a 401 with the bare Bearer challenge (no error code: no token was sent)', async (_label, authorization) => {
    const response = await get(authorization)
    const body = expectProblem(response, 401, 'Unauthorized')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="intake"')
    expect(body.detail).toStartWith('An access token is required')
  })

  test.each([
    ['a token that is not a JWT', 'Bearer not-a-jwt'],
    ['two parts', 'Bearer abc.def'],
    ['four parts', 'Bearer a.b.c.d'],
    ['garbage segments', 'Bearer !!!.@@@.###'],
    ['two tokens', 'Bearer a.b.c d.e.f'],
    ['a quote in the token', 'Bearer a"b.c\\d.e'],
  ])('%s is a 401 whose challenge says the token is malformed', async (_label, authorization) => {
    expectInvalidToken(await get(authorization), FORGED)
  })

  test('a wrong password is a 401 with the bare challenge: it is no token error', async () => {
    const { email } = await newMember()
    const response = await login({ email, password: 'not the password at all' })
    expectProblem(response, 401, 'Unauthorized')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="intake"')
  })
})

// Last: it moves the server's clock past the 15-minute window.
describe('login throttling', () => {
  test('after 10 failures for one email the 11th attempt is 429 with Retry-After, even with the right password', async () => {
    const { email } = await newMember()
    const bystander = await newMember()
    for (let i = 0; i < 10; i++) {
      expectProblem(await login({ email, password: `wrong password ${i}` }), 401, 'Unauthorized')
    }

    const limited = await login({ email, password: TEST_PASSWORD })
    expectProblem(limited, 429, 'Too many requests')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    // The count is per email: someone else logs in as usual, even from the same address.
    expect((await login({ email: bystander.email, password: TEST_PASSWORD })).status).toBe(200)
    // Another case of the same email is the same email.
    expect((await login({ email: email.toUpperCase(), password: TEST_PASSWORD })).status).toBe(429)

    api.world.clock.advance(15 * 60_000 + 1000)
    expect((await login({ email, password: TEST_PASSWORD })).status).toBe(200)
  })
})
