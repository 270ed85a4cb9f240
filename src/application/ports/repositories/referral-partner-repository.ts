import type { ReferralPartner } from '../../../domain/federation/referral-partner'

/** The organization's pairings (docs/referrals.md). */
export interface ReferralPartnerRepository {
  insert(partner: ReferralPartner): Promise<void>
  /** The organization's pairing, active or ended. */
  findById(organizationId: string, id: string): Promise<ReferralPartner | undefined>
  /** A pairing of any organization: a message names the receiver's pairing, and its signature is checked with it. */
  findForMessage(id: string): Promise<ReferralPartner | undefined>
  /** The organization's active pairings, oldest first. */
  listActive(organizationId: string): Promise<ReferralPartner[]>
  /** Ends an active pairing; false when it was not active (ended already, or none). */
  end(organizationId: string, id: string, at: Date): Promise<boolean>
}
