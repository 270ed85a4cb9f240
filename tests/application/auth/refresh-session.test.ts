import type { VerifiedAccessToken } from '../../../src/application/ports/access-tokens'
import { beforeEach, describe, expect, test } from 'bun:test'
import { LOST_RENEWAL_GRACE_MS, type RefreshSession } from '../../../src/application/auth/refresh-session'
import { UnauthorizedError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf } from '../failure-of'

const DAY = 24 * 3_600_000

let world: World
let refresh: RefreshSession
let adminEmail: string
beforeEach(async () => {
  world = await createWorld()
  refresh = world.useCases.auth.refresh
  adminEmail = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!.email
})

/** The member's own client, and another one. */
const HOME = '198.51.100.7'
const ELSEWHERE = '203.0.113.9'

const logIn = () => world.useCases.auth.login.execute({ email: adminEmail, password: TEST_PASSWORD })
const claimsOf = (accessToken: string) => world.container.get(PORTS.accessTokens).verify(accessToken) as VerifiedAccessToken

describe('RefreshSession', () => {
  test('trades a refresh token for a new pair for the same member', async () => {
    const first = await logIn()
    const second = await refresh.execute(first.refreshToken)
    expect(second).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 })
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(claimsOf(second.accessToken)).toEqual({
      expiresAt: expect.any(Date),
      memberId: world.admin.memberId,
      organizationId: world.organizationId,
      sessionId: expect.any(String),
    })
  })

  test('rotates: the refresh token used stops working', async () => {
    const first = await logIn()
    await refresh.execute(first.refreshToken, HOME)
    await failureOf(refresh.execute(first.refreshToken, ELSEWHERE), UnauthorizedError)
  })

  test('the new refresh token works in turn, along a chain of rotations', async () => {
    let tokens = await logIn()
    for (let i = 0; i < 3; i++) tokens = await refresh.execute(tokens.refreshToken)
    expect(claimsOf(tokens.accessToken)?.memberId).toBe(world.admin.memberId)
  })

  test('reusing a rotated token revokes the whole chain: the newest token fails too', async () => {
    const first = await logIn()
    const second = await refresh.execute(first.refreshToken)
    const third = await refresh.execute(second.refreshToken)
    await failureOf(refresh.execute(first.refreshToken), UnauthorizedError)
    await failureOf(refresh.execute(third.refreshToken), UnauthorizedError)
  })

  test("a reuse is recorded in the audit trail as the member's session revoked, by nobody known; a renewal is not", async () => {
    const revocations = async () =>
      (await world.repositories.auditEvents.list(world.organizationId, { action: 'revoke_session' }, { page: 1, limit: 10 })).items
    const first = await logIn()
    const second = await refresh.execute(first.refreshToken, HOME)
    await refresh.execute(first.refreshToken, HOME) // its answer lost: answered again
    expect(await revocations()).toEqual([])
    await failureOf(refresh.execute(second.refreshToken, HOME), UnauthorizedError)
    const [event, ...more] = await revocations()
    expect(more).toEqual([])
    expect(event).toMatchObject({ recordType: 'member', recordId: world.admin.memberId, at: world.clock.now() })
    expect(event!.memberId).toBeUndefined()
  })

  test('a reuse revokes only its own chain, not the sessions of other logins', async () => {
    const stolen = await logIn()
    const otherSession = await logIn()
    await refresh.execute(stolen.refreshToken, HOME)
    await failureOf(refresh.execute(stolen.refreshToken, ELSEWHERE), UnauthorizedError)
    expect((await refresh.execute(otherSession.refreshToken)).tokenType).toBe('Bearer')
  })

  describe('a renewal whose answer was lost (the page reloaded in the middle of it)', () => {
    test('the same client presenting the old token again soon after gets a new pair; the lost one then ends the session', async () => {
      const first = await logIn()
      const lost = await refresh.execute(first.refreshToken, HOME)
      world.clock.advance(LOST_RENEWAL_GRACE_MS)
      const again = await refresh.execute(first.refreshToken, HOME)
      // The same session and member; the new token's time runs from now.
      const { expiresAt: _lostExpiry, ...lostClaims } = claimsOf(lost.accessToken)
      expect(claimsOf(again.accessToken)).toEqual({ ...lostClaims, expiresAt: expect.any(Date) })
      expect((await refresh.execute(again.refreshToken, HOME)).tokenType).toBe('Bearer')
      // The lost token was retired unused: presenting it is a reuse, and the session ends.
      await failureOf(refresh.execute(lost.refreshToken, HOME), UnauthorizedError)
      await failureOf(refresh.execute(again.refreshToken, HOME), UnauthorizedError)
    })

    test('lost twice in a row, the old token is answered once more', async () => {
      const first = await logIn()
      await refresh.execute(first.refreshToken, HOME)
      await refresh.execute(first.refreshToken, HOME)
      const third = await refresh.execute(first.refreshToken, HOME)
      expect((await refresh.execute(third.refreshToken, HOME)).tokenType).toBe('Bearer')
    })

    test('later than 30 s, from another client address, or once the new token was used, it is a reuse: the session ends', async () => {
      const late = await logIn()
      const lateNext = await refresh.execute(late.refreshToken, HOME)
      world.clock.advance(LOST_RENEWAL_GRACE_MS + 1)
      await failureOf(refresh.execute(late.refreshToken, HOME), UnauthorizedError)
      await failureOf(refresh.execute(lateNext.refreshToken, HOME), UnauthorizedError)

      const stolen = await logIn()
      const stolenNext = await refresh.execute(stolen.refreshToken, HOME)
      await failureOf(refresh.execute(stolen.refreshToken, ELSEWHERE), UnauthorizedError)
      await failureOf(refresh.execute(stolenNext.refreshToken, HOME), UnauthorizedError)

      const used = await logIn()
      const usedNext = await refresh.execute(used.refreshToken, HOME)
      const newest = await refresh.execute(usedNext.refreshToken, HOME)
      await failureOf(refresh.execute(used.refreshToken, HOME), UnauthorizedError)
      await failureOf(refresh.execute(newest.refreshToken, HOME), UnauthorizedError)
    })
  })

  test('refuses a refresh token after its 30 days', async () => {
    const tokens = await logIn()
    world.clock.advance(30 * DAY)
    await failureOf(refresh.execute(tokens.refreshToken), UnauthorizedError)
  })

  test('accepts a refresh token shortly before its 30 days are over', async () => {
    const tokens = await logIn()
    world.clock.advance(30 * DAY - 1000)
    expect((await refresh.execute(tokens.refreshToken)).tokenType).toBe('Bearer')
  })

  test('refuses an unknown refresh token', async () => {
    await failureOf(refresh.execute('not-a-token-we-issued'), UnauthorizedError)
  })

  test('refuses a member who is no longer confirmed', async () => {
    const tokens = await logIn()
    const admin = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!
    await world.container.get(PORTS.unitOfWork).run((r) => r.members.update({ ...admin, isConfirmed: false }))
    await failureOf(refresh.execute(tokens.refreshToken), UnauthorizedError)
  })
})
