import { createHmac } from 'node:crypto'
import { beforeEach, describe, expect, test } from 'bun:test'
import type { Authenticate } from '../../../src/application/auth/authenticate'
import { TokenPairIssuer } from '../../../src/application/auth/token-pair'
import type { Actor } from '../../../src/domain/auth/actor'
import { UnauthorizedError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf } from '../failure-of'

const MINUTE = 60_000

let world: World
let authenticate: Authenticate
beforeEach(async () => {
  world = await createWorld()
  authenticate = world.useCases.auth.authenticate
})

const memberOf = async (actor: Actor) => (await world.repositories.members.findById(actor.organizationId, actor.memberId))!
/** A token pair of a new session, as login would issue it. */
const sessionOf = async (actor: Actor) => {
  const member = await memberOf(actor)
  return world.container.get(PORTS.unitOfWork).run((r) => world.container.get(TokenPairIssuer).issue(r, member))
}
const accessTokenFor = async (actor: Actor) => (await sessionOf(actor)).accessToken
/** A correctly signed token for any claims, with a session nobody started. */
const signedToken = (actor: Actor) =>
  world.container
    .get(PORTS.accessTokens)
    .issue({ memberId: actor.memberId, organizationId: actor.organizationId, sessionId: crypto.randomUUID() })
/** Why a token is refused. */
const refusalOf = async (token: string | undefined) => (await failureOf(authenticate.execute(token), UnauthorizedError)).token
const updateMember = async (actor: Actor, changes: Record<string, unknown>) => {
  const member = await memberOf(actor)
  await world.container.get(PORTS.unitOfWork).run((r) => r.members.update({ ...member, ...changes }))
}
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))

describe('Authenticate', () => {
  test('turns a token from login into the acting member', async () => {
    const email = (await memberOf(world.admin)).email
    const { accessToken } = await world.useCases.auth.login.execute({ email, password: TEST_PASSWORD })
    expect(await authenticate.execute(accessToken)).toEqual(world.admin)
  })

  test('carries the partner and profiles of a partner member', async () => {
    const agent = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
    expect(await authenticate.execute(await accessTokenFor(agent))).toEqual({
      memberId: agent.memberId,
      organizationId: world.organizationId,
      role: 'volunteer',
      profiles: ['intake_staff'],
      partnerId: world.defaultPartner.id,
    })
  })

  test('refuses a missing token as missing, and a malformed one as invalid', async () => {
    expect(await refusalOf(undefined)).toBe('missing')
    for (const token of ['', 'not.a.jwt', 'garbage', 'a.b.c.d']) expect(await refusalOf(token)).toBe('invalid')
  })

  test('accepts a token until its 15 minutes are over, and refuses it after', async () => {
    const token = await accessTokenFor(world.admin)
    world.clock.advance(15 * MINUTE - 1000)
    expect((await authenticate.execute(token)).memberId).toBe(world.admin.memberId)
    world.clock.advance(1000)
    expect(await refusalOf(token)).toBe('expired')
  })

  test('says expired only of a genuine token: an expired forged one is invalid', async () => {
    const [header, payload] = (await accessTokenFor(world.admin)).split('.') as [string, string]
    const signature = createHmac('sha256', 'another secret that is at least 32 characters')
      .update(`${header}.${payload}`)
      .digest('base64url')
    world.clock.advance(60 * MINUTE)
    expect(await refusalOf(`${header}.${payload}.${signature}`)).toBe('invalid')
  })

  test('a token without a session (issued before sessions were checked) is invalid', async () => {
    const [header, payload] = (await accessTokenFor(world.admin)).split('.') as [string, string]
    const { sid: _sid, ...claims } = decode(payload)
    const unsigned = `${header}.${segment(claims)}`
    const signature = createHmac('sha256', world.container.get(PORTS.config).jwtSecret).update(unsigned).digest('base64url')
    expect(await refusalOf(`${unsigned}.${signature}`)).toBe('invalid')
  })

  describe('the session', () => {
    test('logout ends the access token of its session at once, and only of that session', async () => {
      const first = await sessionOf(world.admin)
      const second = await sessionOf(world.admin)
      await world.useCases.auth.logout.execute(world.admin, first.refreshToken)
      expect(await refusalOf(first.accessToken)).toBe('ended')
      expect((await authenticate.execute(second.accessToken)).memberId).toBe(world.admin.memberId)
    })

    test('an access token outlives the refresh that rotated its refresh token: the session goes on', async () => {
      const first = await sessionOf(world.admin)
      const second = await world.useCases.auth.refresh.execute(first.refreshToken)
      expect((await authenticate.execute(first.accessToken)).memberId).toBe(world.admin.memberId)
      expect((await authenticate.execute(second.accessToken)).memberId).toBe(world.admin.memberId)
    })

    test('a reused refresh token revokes the session, and every access token of it stops working', async () => {
      const first = await sessionOf(world.admin)
      const second = await world.useCases.auth.refresh.execute(first.refreshToken, '198.51.100.7')
      // From another client: not the same browser presenting it again after a lost answer.
      await failureOf(world.useCases.auth.refresh.execute(first.refreshToken, '203.0.113.9'), UnauthorizedError)
      expect(await refusalOf(first.accessToken)).toBe('ended')
      expect(await refusalOf(second.accessToken)).toBe('ended')
    })

    test("a session id of another member's session does not carry a token", async () => {
      const staff = await world.member('staff')
      const theirs = await sessionOf(staff)
      const [, payload] = theirs.accessToken.split('.') as [string, string]
      const token = world.container.get(PORTS.accessTokens).issue({ ...world.admin, sessionId: decode(payload).sid })
      expect(await refusalOf(token)).toBe('ended')
    })
  })

  test('refuses a token whose claims were altered', async () => {
    const other = await world.member('org_admin')
    const [header, payload, signature] = (await accessTokenFor(world.admin)).split('.') as [string, string, string]
    const forged = segment({ ...decode(payload), sub: other.memberId })
    await failureOf(authenticate.execute(`${header}.${forged}.${signature}`), UnauthorizedError)
    const extended = segment({ ...decode(payload), exp: decode(payload).exp + 3600 })
    await failureOf(authenticate.execute(`${header}.${extended}.${signature}`), UnauthorizedError)
  })

  test('refuses a token whose signature was altered or removed', async () => {
    const [header, payload, signature] = (await accessTokenFor(world.admin)).split('.') as [string, string, string]
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)
    await failureOf(authenticate.execute(`${header}.${payload}.${flipped}`), UnauthorizedError)
    await failureOf(authenticate.execute(`${header}.${payload}.`), UnauthorizedError)
  })

  test('refuses an alg: none token', async () => {
    const [, payload] = (await accessTokenFor(world.admin)).split('.') as [string, string]
    await failureOf(authenticate.execute(`${segment({ alg: 'none', typ: 'JWT' })}.${payload}.`), UnauthorizedError)
    await failureOf(authenticate.execute(`${segment({ alg: 'none' })}.${payload}`), UnauthorizedError)
  })

  test('refuses a token whose header names another algorithm, even with a valid HMAC under it', async () => {
    const [, payload] = (await accessTokenFor(world.admin)).split('.') as [string, string]
    const signedWith = (header: string) =>
      `${header}.${payload}.${createHmac('sha256', world.container.get(PORTS.config).jwtSecret).update(`${header}.${payload}`).digest('base64url')}`
    expect((await authenticate.execute(signedWith(segment({ typ: 'JWT', alg: 'HS256' })))).memberId).toBe(world.admin.memberId)
    await failureOf(authenticate.execute(signedWith(segment({ alg: 'HS512', typ: 'JWT' }))), UnauthorizedError)
    await failureOf(authenticate.execute(signedWith(segment({ alg: 'none', typ: 'JWT' }))), UnauthorizedError)
  })

  test('refuses a token signed with another secret', async () => {
    const [header, payload] = (await accessTokenFor(world.admin)).split('.') as [string, string]
    const signature = createHmac('sha256', 'another secret that is at least 32 characters')
      .update(`${header}.${payload}`)
      .digest('base64url')
    await failureOf(authenticate.execute(`${header}.${payload}.${signature}`), UnauthorizedError)
  })

  test('refuses the token of a member that does not exist (or no longer does)', async () => {
    await failureOf(authenticate.execute(signedToken({ ...world.admin, memberId: crypto.randomUUID() })), UnauthorizedError)
  })

  test('refuses a token that pairs a member with another organization', async () => {
    const other = await world.otherOrganization()
    await failureOf(authenticate.execute(signedToken({ ...world.admin, organizationId: other.organizationId })), UnauthorizedError)
  })

  test('refuses the token of a member who is no longer confirmed', async () => {
    const staff = await world.member('staff')
    const token = await accessTokenFor(staff)
    await updateMember(staff, { isConfirmed: false })
    expect(await refusalOf(token)).toBe('ended')
  })

  test('reads role, partner and profiles from the current member record, not from the token', async () => {
    const staff = await world.member('staff')
    const token = await accessTokenFor(staff)
    await updateMember(staff, { role: 'volunteer', partnerId: world.defaultPartner.id, profiles: ['needs_processor'] })
    expect(await authenticate.execute(token)).toMatchObject({
      role: 'volunteer',
      partnerId: world.defaultPartner.id,
      profiles: ['needs_processor'],
    })
  })
})
