import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { PORTS } from '../../../src/main/container'
import { api, login, loginPair, newMember, openAuthServer } from './auth-support'
import { claimsOf, expectProblem, forgeToken, jwtSecretOf } from './helpers'

// docs/api/access.md "Tokens" (what a protected route makes of the bearer token it is sent: forged, expired,
// malformed or of an ended session) over real HTTP; docs/api/conventions.md "Errors" for the error answers.
openAuthServer()

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
