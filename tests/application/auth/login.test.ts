import type { VerifiedAccessToken } from '../../../src/application/ports/access-tokens'
import { beforeEach, describe, expect, test } from 'bun:test'
import type { Login } from '../../../src/application/auth/login'
import type { Actor } from '../../../src/domain/auth/actor'
import { InvalidError, TooManyRequestsError, UnauthorizedError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf } from '../failure-of'

const MINUTE = 60_000

let world: World
let login: Login
let passwordHash: string
beforeEach(async () => {
  world = await createWorld()
  login = world.useCases.auth.login
  passwordHash = await world.container.get(PORTS.passwords).hash(TEST_PASSWORD)
})

const emailOf = async (actor: Actor) => (await world.repositories.members.findById(actor.organizationId, actor.memberId))!.email
const claimsOf = (accessToken: string) => world.container.get(PORTS.accessTokens).verify(accessToken) as VerifiedAccessToken
const slugOf = async (w: World) => (await w.repositories.organizations.findById(w.organizationId))!.slug

async function failTimes(email: string, times: number, clientAddress = 'unknown') {
  for (let i = 0; i < times; i++) await failureOf(login.execute({ email, password: 'wrong password!' }, clientAddress), UnauthorizedError)
}

describe('Login', () => {
  test('answers a Bearer token pair for the right email and password', async () => {
    const staff = await world.member('staff', { passwordHash })
    const tokens = await login.execute({ email: await emailOf(staff), password: TEST_PASSWORD })
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 })
    expect(tokens.refreshToken.length).toBeGreaterThan(20)
    expect(claimsOf(tokens.accessToken)).toEqual({
      expiresAt: expect.any(Date),
      memberId: staff.memberId,
      organizationId: world.organizationId,
      sessionId: expect.any(String),
    })
  })

  test('is the member’s last login; renewing the session is not', async () => {
    const staff = await world.member('staff', { passwordHash })
    const lastLogin = async () => (await world.repositories.members.findById(world.organizationId, staff.memberId))!.lastLoginAt
    expect(await lastLogin()).toBeUndefined()
    const tokens = await login.execute({ email: await emailOf(staff), password: TEST_PASSWORD })
    const loggedInAt = world.clock.now()
    expect(await lastLogin()).toEqual(loggedInAt)

    world.clock.advance(MINUTE)
    await world.useCases.auth.refresh.execute(tokens.refreshToken)
    expect(await lastLogin()).toEqual(loggedInAt)
    await login.execute({ email: await emailOf(staff), password: TEST_PASSWORD })
    expect(await lastLogin()).toEqual(world.clock.now())
  })

  test('takes the email in any case and with spaces around it', async () => {
    const staff = await world.member('staff', { passwordHash, email: 'ana.lopez@example.org' })
    const tokens = await login.execute({ email: '  Ana.Lopez@EXAMPLE.org ', password: TEST_PASSWORD })
    expect(claimsOf(tokens.accessToken)?.memberId).toBe(staff.memberId)
  })

  test('logs in the admin made with the organization', async () => {
    expect(claimsOf((await login.execute({ email: await emailOf(world.admin), password: TEST_PASSWORD })).accessToken)?.memberId).toBe(
      world.admin.memberId,
    )
  })

  test('answers a wrong password and an unknown email with the same Unauthorized', async () => {
    const staff = await world.member('staff', { passwordHash })
    const wrongPassword = await failureOf(login.execute({ email: await emailOf(staff), password: 'not the password' }), UnauthorizedError)
    const unknownEmail = await failureOf(login.execute({ email: 'nobody@example.org', password: TEST_PASSWORD }), UnauthorizedError)
    expect(unknownEmail.message).toBe(wrongPassword.message)
    expect(unknownEmail.kind).toBe(wrongPassword.kind)
  })

  test('refuses a member with no password yet, the same way', async () => {
    const invited = await world.member('staff', { isConfirmed: false })
    await failureOf(login.execute({ email: await emailOf(invited), password: TEST_PASSWORD }), UnauthorizedError)
  })

  test('refuses a member whose email is not confirmed, even with the right password', async () => {
    const unconfirmed = await world.member('staff', { passwordHash, isConfirmed: false })
    const error = await failureOf(login.execute({ email: await emailOf(unconfirmed), password: TEST_PASSWORD }), UnauthorizedError)
    expect(error.message).toBe((await failureOf(login.execute({ email: 'nobody@example.org', password: 'x' }), UnauthorizedError)).message)
  })

  describe('throttling per address (10 failures for one email from one address within 15 minutes)', () => {
    test('refuses the 11th attempt with TooManyRequests, even with the right password', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 10)
      const error = await failureOf(login.execute({ email, password: TEST_PASSWORD }), TooManyRequestsError)
      expect(error.retryAfterSeconds).toBe(15 * 60)
    })

    test('allows the 10th attempt', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 9)
      expect((await login.execute({ email, password: TEST_PASSWORD })).tokenType).toBe('Bearer')
    })

    test('tells how long until the oldest failure leaves the window', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      for (let i = 0; i < 10; i++) {
        await failTimes(email, 1)
        world.clock.advance(MINUTE)
      }
      // oldest failure 10 minutes ago: the window frees in 5 minutes
      expect((await failureOf(login.execute({ email, password: TEST_PASSWORD }), TooManyRequestsError)).retryAfterSeconds).toBe(5 * 60)
    })

    test('lets the member in once Retry-After has passed', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 10)
      const { retryAfterSeconds } = await failureOf(login.execute({ email, password: TEST_PASSWORD }), TooManyRequestsError)
      world.clock.advance(retryAfterSeconds * 1000)
      expect((await login.execute({ email, password: TEST_PASSWORD })).tokenType).toBe('Bearer')
    })

    test('counts the email however it is written', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email.toUpperCase(), 10)
      await failureOf(login.execute({ email, password: TEST_PASSWORD }), TooManyRequestsError)
    })

    test('counts unknown emails too, so guessing cannot go on unbounded', async () => {
      await failTimes('nobody@example.org', 10)
      await failureOf(login.execute({ email: 'nobody@example.org', password: 'x' }), TooManyRequestsError)
    })

    test('is per email: another member still logs in', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      const other = await world.member('staff', { passwordHash })
      await failTimes(email, 10)
      expect(claimsOf((await login.execute({ email: await emailOf(other), password: TEST_PASSWORD })).accessToken)?.memberId).toBe(
        other.memberId,
      )
    })

    test('forgets failures older than 15 minutes', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 9)
      world.clock.advance(15 * MINUTE + 1)
      await failTimes(email, 9)
      expect((await login.execute({ email, password: TEST_PASSWORD })).tokenType).toBe('Bearer')
    })

    test("a stranger's failures from another address do not lock the member out", async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 10, '203.0.113.66')
      await failureOf(login.execute({ email, password: TEST_PASSWORD }, '203.0.113.66'), TooManyRequestsError)
      expect((await login.execute({ email, password: TEST_PASSWORD }, '192.0.2.10')).tokenType).toBe('Bearer')
      // The member's success does not clear the stranger's count.
      await failureOf(login.execute({ email, password: TEST_PASSWORD }, '203.0.113.66'), TooManyRequestsError)
    })

    test('counts an IPv6 client by its /64: new addresses in it do not buy new attempts', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      for (let i = 1; i <= 10; i++) await failTimes(email, 1, `2001:db8:1:2::${i.toString(16)}`)
      await failureOf(login.execute({ email, password: TEST_PASSWORD }, '2001:db8:1:2::ffff'), TooManyRequestsError)
      expect((await login.execute({ email, password: TEST_PASSWORD }, '2001:db8:1:3::1')).tokenType).toBe('Bearer')
    })

    test('a successful login clears the failures from its address', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 9)
      await login.execute({ email, password: TEST_PASSWORD })
      await failTimes(email, 9)
      expect((await login.execute({ email, password: TEST_PASSWORD })).tokenType).toBe('Bearer')
    })
  })

  describe('throttling per email (100 failures from all addresses within 15 minutes)', () => {
    const address = (i: number) => `198.51.100.${i}`

    test('past the ceiling every address that failed for the email is refused, the right password too, until its oldest failure leaves', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      for (let i = 0; i < 99; i++) await failTimes(email, 1, address(i))
      expect((await login.execute({ email, password: TEST_PASSWORD }, address(0))).tokenType).toBe('Bearer')
      world.clock.advance(MINUTE)
      await failTimes(email, 1, address(99))
      await failTimes(email, 1, address(0))
      for (const failed of [address(1), address(99)]) {
        const error = await failureOf(login.execute({ email, password: TEST_PASSWORD }, failed), TooManyRequestsError)
        // The oldest failure is a minute old: the email is free again when it leaves the window.
        expect(error.retryAfterSeconds).toBe(14 * 60)
      }
      world.clock.advance(14 * MINUTE)
      expect((await login.execute({ email, password: TEST_PASSWORD }, address(99))).tokenType).toBe('Bearer')
    })

    test("a stranger's failures from many addresses cannot lock the member out: the right password from a clean address logs in", async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      // 110 guesses from 11 addresses: the last address has its one guess past the ceiling, then is refused.
      for (let i = 0; i < 10; i++) await failTimes(email, 10, address(i))
      await failTimes(email, 1, address(10))
      for (let i = 0; i < 9; i++) await failureOf(login.execute({ email, password: 'wrong password!' }, address(10)), TooManyRequestsError)
      expect((await login.execute({ email, password: TEST_PASSWORD }, address(200))).tokenType).toBe('Bearer')
    })

    test('Retry-After is the later of the two limits', async () => {
      const email = await emailOf(await world.member('staff', { passwordHash }))
      await failTimes(email, 10, address(0))
      world.clock.advance(5 * MINUTE)
      for (let i = 1; i <= 90; i++) await failTimes(email, 1, address(i))
      // The address's limit frees in 10 minutes, the email's (its oldest failure is the same) too.
      expect((await failureOf(login.execute({ email, password: TEST_PASSWORD }, address(0)), TooManyRequestsError)).retryAfterSeconds).toBe(
        10 * 60,
      )
      expect((await failureOf(login.execute({ email, password: TEST_PASSWORD }, address(1)), TooManyRequestsError)).retryAfterSeconds).toBe(
        10 * 60,
      )
    })
  })

  describe('an email in several organizations', () => {
    test('needs organizationSlug when the password opens more than one', async () => {
      const other = await world.otherOrganization()
      await world.member('staff', { passwordHash, email: 'shared@example.org' })
      await other.member('staff', { passwordHash, email: 'shared@example.org' })
      const error = await failureOf(login.execute({ email: 'shared@example.org', password: TEST_PASSWORD }), InvalidError)
      expect(error.errors.map((e) => e.path)).toEqual(['/organizationSlug'])
    })

    test('logs into the organization named by organizationSlug', async () => {
      const other = await world.otherOrganization()
      await world.member('staff', { passwordHash, email: 'shared@example.org' })
      const theirs = await other.member('staff', { passwordHash, email: 'shared@example.org' })
      const tokens = await login.execute({ email: 'shared@example.org', password: TEST_PASSWORD, organizationSlug: await slugOf(other) })
      expect(claimsOf(tokens.accessToken)).toEqual({
        expiresAt: expect.any(Date),
        memberId: theirs.memberId,
        organizationId: other.organizationId,
        sessionId: expect.any(String),
      })
    })

    test('refuses an organizationSlug the email does not belong to', async () => {
      const other = await world.otherOrganization()
      const staff = await world.member('staff', { passwordHash })
      await failureOf(
        login.execute({ email: await emailOf(staff), password: TEST_PASSWORD, organizationSlug: await slugOf(other) }),
        UnauthorizedError,
      )
      await failureOf(
        login.execute({ email: await emailOf(staff), password: TEST_PASSWORD, organizationSlug: 'no-such-org' }),
        UnauthorizedError,
      )
    })
  })
})
