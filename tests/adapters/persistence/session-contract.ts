import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { RefreshTokenRecord } from '../../../src/application/ports/repositories/refresh-token-repository'
import type { ContractContext } from './contract-context'
import { minute, presentKeys } from './contract-support'

function aRefreshToken(
  overrides: Partial<RefreshTokenRecord> & Pick<RefreshTokenRecord, 'memberId' | 'organizationId'>,
): RefreshTokenRecord {
  return {
    id: randomUUID(),
    familyId: randomUUID(),
    tokenHash: randomUUID().replaceAll('-', ''),
    createdAt: minute(0),
    expiresAt: minute(60 * 24 * 30),
    ...overrides,
  }
}

/** Sessions: refresh tokens in families, the member a session names, and login attempts. */
export function describeSessionContract({ read, write, anOrganizationWithPartner, aMemberOf }: ContractContext): void {
  describe('refresh tokens', () => {
    async function aMemberWithOrganization() {
      const { organization } = await anOrganizationWithPartner()
      return aMemberOf(organization.id)
    }

    test('finds a token by its hash, absent times absent', async () => {
      const member = await aMemberWithOrganization()
      const token = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
      await write((r) => r.refreshTokens.insert(token))

      const found = await read().refreshTokens.findByHash(token.tokenHash)
      expect(found).toEqual(token)
      expect(presentKeys(found, ['rotatedAt', 'revokedAt'])).toEqual([])
      expect(await read().refreshTokens.findByHash('no-such-hash')).toBeUndefined()
    })

    test('keeps rotation and revocation times', async () => {
      const member = await aMemberWithOrganization()
      const token = aRefreshToken({
        memberId: member.id,
        organizationId: member.organizationId,
        rotatedAt: minute(1),
        revokedAt: minute(2),
        replacedBy: randomUUID(),
        rotatedFrom: '2001:db8::7',
      })
      await write((r) => r.refreshTokens.insert(token))

      expect(await read().refreshTokens.findByHash(token.tokenHash)).toEqual(token)
    })

    test('marks a token rotated once: true the first time, false after', async () => {
      const member = await aMemberWithOrganization()
      const token = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
      await write((r) => r.refreshTokens.insert(token))

      expect(await write((r) => r.refreshTokens.markRotated(token.id, minute(5)))).toBe(true)
      expect(await write((r) => r.refreshTokens.markRotated(token.id, minute(6)))).toBe(false)
      expect(await read().refreshTokens.findByHash(token.tokenHash)).toEqual({ ...token, rotatedAt: minute(5) })
      expect(await write((r) => r.refreshTokens.markRotated(randomUUID(), minute(7)))).toBe(false)
    })

    test('a rotation keeps what the token became and where the renewal came from; its successor can be replaced', async () => {
      const member = await aMemberWithOrganization()
      const token = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
      await write((r) => r.refreshTokens.insert(token))
      const rotation = { successorId: randomUUID(), from: '198.51.100.7' }

      expect(await write((r) => r.refreshTokens.markRotated(token.id, minute(5), rotation))).toBe(true)
      const rotated = { ...token, rotatedAt: minute(5), replacedBy: rotation.successorId, rotatedFrom: rotation.from }
      expect(await read().refreshTokens.findByHash(token.tokenHash)).toEqual(rotated)

      const next = randomUUID()
      await write((r) => r.refreshTokens.replaceSuccessor(token.id, next))
      expect(await read().refreshTokens.findByHash(token.tokenHash)).toEqual({ ...rotated, replacedBy: next })
    })

    test('revokes every session of a member and no other member’s, keeping an earlier revocation', async () => {
      const member = await aMemberWithOrganization()
      const other = await aMemberOf(member.organizationId)
      const tokens = [
        aRefreshToken({ memberId: member.id, organizationId: member.organizationId }),
        aRefreshToken({ memberId: member.id, organizationId: member.organizationId }),
        aRefreshToken({ memberId: member.id, organizationId: member.organizationId, revokedAt: minute(2) }),
      ]
      const others = aRefreshToken({ memberId: other.id, organizationId: other.organizationId })
      await write(async (r) => {
        for (const token of [...tokens, others]) await r.refreshTokens.insert(token)
      })

      await write((r) => r.refreshTokens.revokeMember(member.organizationId, member.id, minute(9)))
      const revoked = await Promise.all(tokens.map((t) => read().refreshTokens.findByHash(t.tokenHash)))
      expect(revoked.map((t) => t?.revokedAt)).toEqual([minute(9), minute(9), minute(2)])
      expect(await read().refreshTokens.findByHash(others.tokenHash)).toEqual(others)
    })

    test('revokes every token of a family and only that family, keeping an earlier revocation', async () => {
      const member = await aMemberWithOrganization()
      const familyId = randomUUID()
      const first = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, familyId, rotatedAt: minute(1) })
      const second = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, familyId })
      const alreadyRevoked = aRefreshToken({ memberId: member.id, organizationId: member.organizationId, familyId, revokedAt: minute(2) })
      const otherFamily = aRefreshToken({ memberId: member.id, organizationId: member.organizationId })
      await write(async (r) => {
        for (const token of [first, second, alreadyRevoked, otherFamily]) await r.refreshTokens.insert(token)
      })

      await write((r) => r.refreshTokens.revokeFamily(familyId, minute(9)))

      expect(await read().refreshTokens.findByHash(first.tokenHash)).toEqual({ ...first, revokedAt: minute(9) })
      expect(await read().refreshTokens.findByHash(second.tokenHash)).toEqual({ ...second, revokedAt: minute(9) })
      expect(await read().refreshTokens.findByHash(alreadyRevoked.tokenHash)).toEqual(alreadyRevoked)
      const untouched = await read().refreshTokens.findByHash(otherFamily.tokenHash)
      expect(untouched).toEqual(otherFamily)
      expect(presentKeys(untouched, ['revokedAt'])).toEqual([])
    })
  })

  describe('members in a session', () => {
    test('finds the member while its session has a token not revoked, and not after the family is revoked', async () => {
      const { organization } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id)
      const familyId = randomUUID()
      const rotated = aRefreshToken({ memberId: member.id, organizationId: organization.id, familyId, rotatedAt: minute(1) })
      const current = aRefreshToken({ memberId: member.id, organizationId: organization.id, familyId })
      await write(async (r) => {
        await r.refreshTokens.insert(rotated)
        await r.refreshTokens.insert(current)
      })

      expect(await read().members.findInSession(organization.id, member.id, familyId)).toEqual(member)
      await write((r) => r.refreshTokens.revokeFamily(familyId, minute(2)))
      expect(await read().members.findInSession(organization.id, member.id, familyId)).toBeUndefined()
      expect(await read().members.findById(organization.id, member.id)).toEqual(member)
    })

    test("answers nothing for an unknown session, another member's session, or another organization", async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id)
      const colleague = await aMemberOf(organization.id)
      const theirs = aRefreshToken({ memberId: colleague.id, organizationId: organization.id })
      const mine = aRefreshToken({ memberId: member.id, organizationId: organization.id })
      await write(async (r) => {
        await r.refreshTokens.insert(theirs)
        await r.refreshTokens.insert(mine)
      })

      expect(await read().members.findInSession(organization.id, member.id, randomUUID())).toBeUndefined()
      expect(await read().members.findInSession(organization.id, member.id, theirs.familyId)).toBeUndefined()
      expect(await read().members.findInSession(other.id, member.id, mine.familyId)).toBeUndefined()
      expect(await read().members.findInSession(organization.id, member.id, mine.familyId)).toEqual(member)
    })
  })

  describe('login attempts', () => {
    const anEmail = () => `${randomUUID()}@example.org`
    const HERE = '192.0.2.1'
    const THERE = '2001:db8::7'

    test('counts an email’s failures at or after a time, from one address and from all, each with its oldest', async () => {
      const email = anEmail()
      await write(async (r) => {
        await r.loginAttempts.recordFailure(email, HERE, minute(10))
        await r.loginAttempts.recordFailure(email, THERE, minute(5))
        await r.loginAttempts.recordFailure(email, HERE, minute(3))
        await r.loginAttempts.recordFailure(email, THERE, minute(0))
        await r.loginAttempts.recordFailure(anEmail(), HERE, minute(7))
      })

      expect(await read().loginAttempts.failuresSince(email, HERE, minute(0))).toEqual({
        total: 4,
        oldest: minute(0),
        fromAddress: 2,
        oldestFromAddress: minute(3),
      })
      expect(await read().loginAttempts.failuresSince(email, THERE, minute(1))).toEqual({
        total: 3,
        oldest: minute(3),
        fromAddress: 1,
        oldestFromAddress: minute(5),
      })
      expect(await read().loginAttempts.failuresSince(email, HERE, minute(4))).toEqual({
        total: 2,
        oldest: minute(5),
        fromAddress: 1,
        oldestFromAddress: minute(10),
      })
      expect(await read().loginAttempts.failuresSince(email, '198.51.100.9', minute(0))).toEqual({
        total: 4,
        oldest: minute(0),
        fromAddress: 0,
      })
    })

    test('answers zeros and no times when no failure is recent enough', async () => {
      const email = anEmail()
      await write((r) => r.loginAttempts.recordFailure(email, HERE, minute(0)))

      expect(await read().loginAttempts.failuresSince(email, HERE, minute(1))).toEqual({ total: 0, fromAddress: 0 })
      expect(await read().loginAttempts.failuresSince(anEmail(), HERE, minute(0))).toEqual({ total: 0, fromAddress: 0 })
    })

    test('clears one email’s failures from one address only', async () => {
      const email = anEmail()
      const other = anEmail()
      await write(async (r) => {
        await r.loginAttempts.recordFailure(email, HERE, minute(1))
        await r.loginAttempts.recordFailure(email, HERE, minute(2))
        await r.loginAttempts.recordFailure(email, THERE, minute(3))
        await r.loginAttempts.recordFailure(other, HERE, minute(3))
      })

      await write((r) => r.loginAttempts.clear(email, HERE))

      expect(await read().loginAttempts.failuresSince(email, HERE, minute(0))).toEqual({ total: 1, oldest: minute(3), fromAddress: 0 })
      expect((await read().loginAttempts.failuresSince(other, HERE, minute(0))).fromAddress).toBe(1)
    })
  })
}
