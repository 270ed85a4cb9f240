import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { PairingInvitation, ReferralPartner } from '../../../src/domain/federation/referral-partner'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

function aPairing(organizationId: string, overrides: Partial<ReferralPartner> = {}): ReferralPartner {
  return {
    id: randomUUID(),
    organizationId,
    name: 'Northside Food Bank',
    baseUrl: 'https://northside.example',
    peerOrganizationId: randomUUID(),
    peerPairingId: randomUUID(),
    peerPublicKey: 'cHVibGljLWtleQ==',
    status: 'active',
    createdAt: minute(0),
    ...overrides,
  }
}

function anInvitation(organizationId: string, expiresAt: Date): PairingInvitation {
  return { id: randomUUID(), organizationId, secretDigest: randomUUID().replaceAll('-', ''), expiresAt, createdAt: minute(0) }
}

/** Pairings and what the channel between instances keeps (docs/referrals.md). */
export function describeFederationContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('referral partners and the federation channel', () => {
    test('a pairing is found in its organization and, for a message, by its id alone; the active ones are listed oldest first', async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const later = aPairing(organization.id, { createdAt: minute(5) })
      const first = aPairing(organization.id)
      await write(async (r) => {
        for (const pairing of [later, first, aPairing(other.id)]) await r.referralPartners.insert(pairing)
      })
      expect(await read().referralPartners.findById(organization.id, first.id)).toEqual(first)
      expect(await read().referralPartners.findById(other.id, first.id)).toBeUndefined()
      expect(await read().referralPartners.findForMessage(first.id)).toEqual(first)
      expect((await read().referralPartners.listActive(organization.id)).map((p) => p.id)).toEqual([first.id, later.id])
    })

    test('an ended pairing leaves the list, keeps its record, and ends once', async () => {
      const { organization } = await anOrganizationWithPartner()
      const pairing = aPairing(organization.id)
      await write((r) => r.referralPartners.insert(pairing))
      expect(await write((r) => r.referralPartners.end('another-organization', pairing.id, minute(1)))).toBe(false)
      expect(await write((r) => r.referralPartners.end(organization.id, pairing.id, minute(1)))).toBe(true)
      expect(await write((r) => r.referralPartners.end(organization.id, pairing.id, minute(2)))).toBe(false)
      expect(await read().referralPartners.findById(organization.id, pairing.id)).toEqual({
        ...pairing,
        status: 'ended',
        endedAt: minute(1),
      })
      expect(await read().referralPartners.listActive(organization.id)).toEqual([])
    })

    test("an organization's first key is kept; a second one changes nothing", async () => {
      const { organization } = await anOrganizationWithPartner()
      const key = { organizationId: organization.id, publicKey: 'first', sealedPrivateKey: 'sealed-first', createdAt: minute(0) }
      await write((r) => r.federation.insertKey(key))
      await write((r) => r.federation.insertKey({ ...key, publicKey: 'second', sealedPrivateKey: 'sealed-second' }))
      expect(await read().federation.findKey(organization.id)).toEqual(key)
    })

    test('an invitation is taken once, and not at all once expired', async () => {
      const { organization } = await anOrganizationWithPartner()
      const good = anInvitation(organization.id, minute(60))
      const expired = anInvitation(organization.id, minute(10))
      await write(async (r) => {
        await r.federation.insertInvitation(good)
        await r.federation.insertInvitation(expired)
      })
      expect(await write((r) => r.federation.takeInvitation(good.secretDigest, minute(30)))).toEqual(good)
      expect(await write((r) => r.federation.takeInvitation(good.secretDigest, minute(30)))).toBeUndefined()
      expect(await write((r) => r.federation.takeInvitation(expired.secretDigest, minute(30)))).toBeUndefined()
    })

    test('a message id is new once per pairing; the purge forgets ids and invitations past their time', async () => {
      const { organization } = await anOrganizationWithPartner()
      const pairing = randomUUID()
      const message = randomUUID()
      const longAgo = new Date('2001-01-01T00:00:00.000Z')
      expect(await write((r) => r.federation.rememberMessage(pairing, message, longAgo))).toBe(true)
      expect(await write((r) => r.federation.rememberMessage(pairing, message, minute(0)))).toBe(false)
      expect(await write((r) => r.federation.rememberMessage(randomUUID(), message, minute(0)))).toBe(true)
      const stale = anInvitation(organization.id, longAgo)
      await write((r) => r.federation.insertInvitation(stale))
      expect(await write((r) => r.federation.purge(new Date('2001-01-02T00:00:00.000Z'), 1000))).toBe(2)
      expect(await write((r) => r.federation.rememberMessage(pairing, message, minute(0)))).toBe(true)
      expect(await write((r) => r.federation.takeInvitation(stale.secretDigest, longAgo))).toBeUndefined()
    })
  })
}
