import { createHmac } from 'node:crypto'
import { beforeEach, describe, expect, test } from 'bun:test'
import { Authenticate } from '../../../src/application/auth/authenticate'
import { Login } from '../../../src/application/auth/login'
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
  authenticate = world.container.get(Authenticate)
})

const accessTokenFor = (actor: Actor) =>
  world.container.get(PORTS.accessTokens).issue({ memberId: actor.memberId, organizationId: actor.organizationId })
const memberOf = async (actor: Actor) => (await world.repositories.members.findById(actor.organizationId, actor.memberId))!
const updateMember = async (actor: Actor, changes: Record<string, unknown>) => {
  const member = await memberOf(actor)
  await world.container.get(PORTS.unitOfWork).run((r) => r.members.update({ ...member, ...changes }))
}
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))

describe('Authenticate', () => {
  test('turns a token from login into the acting member', async () => {
    const email = (await memberOf(world.admin)).email
    const { accessToken } = await world.container.get(Login).execute({ email, password: TEST_PASSWORD })
    expect(await authenticate.execute(accessToken)).toEqual(world.admin)
  })

  test("carries the partner and profiles of a partner member", async () => {
    const agent = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
    expect(await authenticate.execute(accessTokenFor(agent))).toEqual({
      memberId: agent.memberId,
      organizationId: world.organizationId,
      role: 'volunteer',
      profiles: ['intake_staff'],
      partnerId: world.defaultPartner.id,
    })
  })

  test('refuses a missing or malformed token', async () => {
    await failureOf(authenticate.execute(undefined), UnauthorizedError)
    await failureOf(authenticate.execute(''), UnauthorizedError)
    await failureOf(authenticate.execute('not.a.jwt'), UnauthorizedError)
    await failureOf(authenticate.execute('garbage'), UnauthorizedError)
  })

  test('accepts a token until its 15 minutes are over, and refuses it after', async () => {
    const token = accessTokenFor(world.admin)
    world.clock.advance(15 * MINUTE - 1000)
    expect((await authenticate.execute(token)).memberId).toBe(world.admin.memberId)
    world.clock.advance(1000)
    await failureOf(authenticate.execute(token), UnauthorizedError)
  })

  test('refuses a token whose claims were altered', async () => {
    const other = await world.member('org_admin')
    const [header, payload, signature] = accessTokenFor(world.admin).split('.') as [string, string, string]
    const forged = segment({ ...decode(payload), sub: other.memberId })
    await failureOf(authenticate.execute(`${header}.${forged}.${signature}`), UnauthorizedError)
    const extended = segment({ ...decode(payload), exp: decode(payload).exp + 3600 })
    await failureOf(authenticate.execute(`${header}.${extended}.${signature}`), UnauthorizedError)
  })

  test('refuses a token whose signature was altered or removed', async () => {
    const [header, payload, signature] = accessTokenFor(world.admin).split('.') as [string, string, string]
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)
    await failureOf(authenticate.execute(`${header}.${payload}.${flipped}`), UnauthorizedError)
    await failureOf(authenticate.execute(`${header}.${payload}.`), UnauthorizedError)
  })

  test('refuses an alg: none token', async () => {
    const [, payload] = accessTokenFor(world.admin).split('.') as [string, string]
    await failureOf(authenticate.execute(`${segment({ alg: 'none', typ: 'JWT' })}.${payload}.`), UnauthorizedError)
    await failureOf(authenticate.execute(`${segment({ alg: 'none' })}.${payload}`), UnauthorizedError)
  })

  test('refuses a token whose header names another algorithm, even with a valid HMAC under it', async () => {
    const [, payload] = accessTokenFor(world.admin).split('.') as [string, string]
    const signedWith = (header: string) =>
      `${header}.${payload}.${createHmac('sha256', world.container.get(PORTS.config).jwtSecret).update(`${header}.${payload}`).digest('base64url')}`
    expect((await authenticate.execute(signedWith(segment({ typ: 'JWT', alg: 'HS256' })))).memberId).toBe(world.admin.memberId)
    await failureOf(authenticate.execute(signedWith(segment({ alg: 'HS512', typ: 'JWT' }))), UnauthorizedError)
    await failureOf(authenticate.execute(signedWith(segment({ alg: 'none', typ: 'JWT' }))), UnauthorizedError)
  })

  test('refuses a token signed with another secret', async () => {
    const [header, payload] = accessTokenFor(world.admin).split('.') as [string, string]
    const signature = createHmac('sha256', 'another secret that is at least 32 characters').update(`${header}.${payload}`).digest('base64url')
    await failureOf(authenticate.execute(`${header}.${payload}.${signature}`), UnauthorizedError)
  })

  test('refuses the token of a member that does not exist (or no longer does)', async () => {
    await failureOf(
      authenticate.execute(accessTokenFor({ ...world.admin, memberId: crypto.randomUUID() })),
      UnauthorizedError,
    )
  })

  test('refuses a token that pairs a member with another organization', async () => {
    const other = await world.otherOrganization()
    await failureOf(authenticate.execute(accessTokenFor({ ...world.admin, organizationId: other.organizationId })), UnauthorizedError)
  })

  test('refuses the token of a member who is no longer confirmed', async () => {
    const staff = await world.member('staff')
    const token = accessTokenFor(staff)
    await updateMember(staff, { isConfirmed: false })
    await failureOf(authenticate.execute(token), UnauthorizedError)
  })

  test('reads role, partner and profiles from the current member record, not from the token', async () => {
    const staff = await world.member('staff')
    const token = accessTokenFor(staff)
    await updateMember(staff, { role: 'volunteer', partnerId: world.defaultPartner.id, profiles: ['needs_processor'] })
    expect(await authenticate.execute(token)).toMatchObject({ role: 'volunteer', partnerId: world.defaultPartner.id, profiles: ['needs_processor'] })
  })
})
