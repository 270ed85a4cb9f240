import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Referral } from '../../../src/domain/referrals/referral'
import type { ContractContext } from './contract-context'
import { minute } from './contract-support'

function aReferral(organizationId: string, overrides: Partial<Referral> = {}): Referral {
  return {
    id: randomUUID(),
    organizationId,
    direction: 'out',
    referralPartnerId: randomUUID(),
    serviceId: randomUUID(),
    needId: randomUUID(),
    partnerId: randomUUID(),
    status: 'requested',
    consent: { obtainedAt: minute(0), method: 'verbal', expiresAt: minute(60), fields: ['firstName', 'phone'] },
    history: [{ status: 'requested', at: minute(0), by: { organization: 'Eastside Pantry', member: randomUUID() } }],
    createdAt: minute(0),
    updatedAt: minute(0),
    ...overrides,
  }
}

/** Each organization's side of its referrals (docs/referrals.md "Referrals"). */
export function describeReferralContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('referrals', () => {
    test('one id is held by each organization of a referral, once each, and read back whole', async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const sent = aReferral(organization.id)
      const received: Referral = {
        ...aReferral(other.id, { id: sent.id, direction: 'in', status: 'received' }),
        consent: undefined,
        takenValues: { firstName: 'Ana', phone: '+15035550101' },
      }
      delete received.consent
      expect(await write((r) => r.referrals.insert(sent))).toBe(true)
      expect(await write((r) => r.referrals.insert(received))).toBe(true)
      expect(await write((r) => r.referrals.insert({ ...sent, status: 'cancelled' }))).toBe(false)
      expect(await read().referrals.findById(organization.id, sent.id)).toEqual(sent)
      expect(await read().referrals.findById(other.id, sent.id)).toEqual(received)
    })

    test('an update keeps its moves, outcome and revoked consent; another organization cannot change it', async () => {
      const { organization } = await anOrganizationWithPartner()
      const referral = aReferral(organization.id)
      await write((r) => r.referrals.insert(referral))
      const completed: Referral = {
        ...referral,
        status: 'completed',
        outcome: 'got_help',
        consentRevokedAt: minute(3),
        notDelivered: true,
        history: [...referral.history, { status: 'completed', at: minute(2), by: { organization: 'Northside' } }],
        updatedAt: minute(3),
      }
      await write((r) => r.referrals.update({ ...completed, organizationId: 'another-organization', status: 'cancelled' }))
      expect(await read().referrals.findById(organization.id, referral.id)).toEqual(referral)
      await write((r) => r.referrals.update(completed))
      expect(await read().referrals.findById(organization.id, referral.id)).toEqual(completed)
    })

    test('a list keeps its direction and status, newest first, paged', async () => {
      const { organization } = await anOrganizationWithPartner()
      const older = aReferral(organization.id)
      const newer = aReferral(organization.id, { createdAt: minute(5) })
      const incoming = aReferral(organization.id, { direction: 'in', status: 'accepted', createdAt: minute(9) })
      await write(async (r) => {
        for (const referral of [older, newer, incoming]) await r.referrals.insert(referral)
      })
      const out = await read().referrals.list(organization.id, { direction: 'out' }, { page: 1, limit: 1 })
      expect(out.items.map((f) => f.id)).toEqual([newer.id])
      expect(out.total).toBe(2)
      const accepted = await read().referrals.list(organization.id, { status: 'accepted' }, { page: 1, limit: 10 })
      expect(accepted.items).toEqual([incoming])
      const ofPartner = await read().referrals.list(organization.id, { partnerId: older.partnerId }, { page: 1, limit: 10 })
      expect(ofPartner.items).toEqual([older])
    })
  })
}
