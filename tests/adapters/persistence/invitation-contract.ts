import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Invitation } from '../../../src/domain/members/invitation'
import type { ContractContext } from './contract-context'
import { minute, presentKeys, realTimer } from './contract-support'

function anInvitation(overrides: Partial<Invitation> & Pick<Invitation, 'organizationId' | 'memberId'>): Invitation {
  return {
    id: randomUUID(),
    tokenDigest: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
    createdAt: minute(0),
    expiresAt: minute(7 * 24 * 60),
    ...overrides,
  }
}

/** Invitations and password-reset links: found by their digest, used once. */
export function describeInvitationContract({ read, write, anOrganizationWithPartner, aMemberOf }: ContractContext): void {
  describe('invitations', () => {
    async function anInvitee() {
      const { organization } = await anOrganizationWithPartner()
      return aMemberOf(organization.id, { isConfirmed: false })
    }

    test('finds an invitation by its digest, usedAt absent until used', async () => {
      const member = await anInvitee()
      const invitation = anInvitation({
        organizationId: member.organizationId,
        memberId: member.id,
        createdAt: minute(2),
        expiresAt: minute(3 + 7 * 24 * 60),
      })
      await write((r) => r.invitations.insert(invitation))

      const found = await read().invitations.findByDigest(invitation.tokenDigest)
      expect(found).toEqual(invitation)
      expect(presentKeys(found, ['usedAt', 'purpose'])).toEqual([])
      expect(await read().invitations.findByDigest(randomUUID())).toBeUndefined()
    })

    test('keeps what a password-reset link is for', async () => {
      const member = await anInvitee()
      const reset = anInvitation({ organizationId: member.organizationId, memberId: member.id, purpose: 'password_reset' })
      await write((r) => r.invitations.insert(reset))

      expect(await read().invitations.findByDigest(reset.tokenDigest)).toEqual(reset)
    })

    test('keeps the new address an email-change link confirms', async () => {
      const member = await anInvitee()
      const change = anInvitation({
        organizationId: member.organizationId,
        memberId: member.id,
        purpose: 'email_change',
        email: 'new@example.org',
      })
      await write((r) => r.invitations.insert(change))

      expect(await read().invitations.findByDigest(change.tokenDigest)).toEqual(change)
    })

    test('voids only the unused links of the purpose named', async () => {
      const member = await anInvitee()
      const ofMember = { organizationId: member.organizationId, memberId: member.id }
      const change = anInvitation({ ...ofMember, purpose: 'email_change', email: 'new@example.org' })
      const reset = anInvitation({ ...ofMember, purpose: 'password_reset' })
      await write(async (r) => {
        for (const i of [change, reset]) await r.invitations.insert(i)
      })

      await write((r) => r.invitations.voidUnused(member.organizationId, member.id, minute(20), 'email_change'))

      expect(await read().invitations.findByDigest(change.tokenDigest)).toEqual({ ...change, usedAt: minute(20) })
      expect(await read().invitations.findByDigest(reset.tokenDigest)).toEqual(reset)
    })

    test('keeps a usedAt given on insert', async () => {
      const member = await anInvitee()
      const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id, usedAt: minute(5) })
      await write((r) => r.invitations.insert(invitation))

      expect(await read().invitations.findByDigest(invitation.tokenDigest)).toEqual(invitation)
      expect(await write((r) => r.invitations.markUsed(invitation.id, minute(6)))).toBe(false)
    })

    test('voids the unused links of one member only, keeping when the used ones were used', async () => {
      const member = await anInvitee()
      const other = await anInvitee()
      const used = anInvitation({ organizationId: member.organizationId, memberId: member.id })
      const pending = anInvitation({ organizationId: member.organizationId, memberId: member.id, purpose: 'password_reset' })
      const othersPending = anInvitation({ organizationId: other.organizationId, memberId: other.id })
      await write(async (r) => {
        for (const i of [used, pending, othersPending]) await r.invitations.insert(i)
        await r.invitations.markUsed(used.id, minute(10))
      })

      await write((r) => r.invitations.voidUnused(member.organizationId, member.id, minute(20)))

      expect(await read().invitations.findByDigest(used.tokenDigest)).toEqual({ ...used, usedAt: minute(10) })
      expect(await read().invitations.findByDigest(pending.tokenDigest)).toEqual({ ...pending, usedAt: minute(20) })
      expect(await read().invitations.findByDigest(othersPending.tokenDigest)).toEqual(othersPending)
      expect(await write((r) => r.invitations.markUsed(pending.id, minute(21)))).toBe(false)
    })

    test('marks an invitation used once: true the first time, false after, the first time kept', async () => {
      const member = await anInvitee()
      const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id })
      const other = anInvitation({ organizationId: member.organizationId, memberId: member.id })
      await write(async (r) => {
        await r.invitations.insert(invitation)
        await r.invitations.insert(other)
      })

      expect(await write((r) => r.invitations.markUsed(invitation.id, minute(10)))).toBe(true)
      expect(await write((r) => r.invitations.markUsed(invitation.id, minute(11)))).toBe(false)
      expect(
        await write(async (r) => [await r.invitations.markUsed(other.id, minute(12)), await r.invitations.markUsed(other.id, minute(13))]),
      ).toEqual([true, false])

      expect(await read().invitations.findByDigest(invitation.tokenDigest)).toEqual({ ...invitation, usedAt: minute(10) })
      expect(await read().invitations.findByDigest(other.tokenDigest)).toEqual({ ...other, usedAt: minute(12) })
      expect(await write((r) => r.invitations.markUsed(randomUUID(), minute(14)))).toBe(false)
    })

    test('a use in a transaction that rolls back leaves the invitation usable', async () => {
      const member = await anInvitee()
      const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id })
      await write((r) => r.invitations.insert(invitation))
      const failure = new Error('password hashing failed')

      const outcome = write(async (r) => {
        expect(await r.invitations.markUsed(invitation.id, minute(20))).toBe(true)
        await realTimer(2)
        throw failure
      })
      await expect(outcome).rejects.toBe(failure)

      expect(presentKeys(await read().invitations.findByDigest(invitation.tokenDigest), ['usedAt'])).toEqual([])
      expect(await write((r) => r.invitations.markUsed(invitation.id, minute(21)))).toBe(true)
    })
  })
}
