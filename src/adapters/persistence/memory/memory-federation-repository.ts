import type { FederationRepository } from '../../../application/ports/repositories/federation-repository'
import type { ReferralPartnerRepository } from '../../../application/ports/repositories/referral-partner-repository'
import type { FederationKey, PairingInvitation, ReferralPartner } from '../../../domain/federation/referral-partner'
import { copy } from './memory-store'
import { MemoryRepository, inOrganization } from './memory-repository'

export class MemoryReferralPartnerRepository extends MemoryRepository implements ReferralPartnerRepository {
  async insert(partner: ReferralPartner) {
    this.t.referralPartners.set(partner.id, copy(partner))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.referralPartners.get(id), organizationId)
  }
  async findForMessage(id: string) {
    const partner = this.t.referralPartners.get(id)
    return partner && copy(partner)
  }
  async listActive(organizationId: string) {
    return [...this.t.referralPartners.values()]
      .filter((p) => p.organizationId === organizationId && p.status === 'active')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map(copy)
  }
  async end(organizationId: string, id: string, at: Date) {
    const partner = this.t.referralPartners.get(id)
    if (partner?.organizationId !== organizationId || partner.status !== 'active') return false
    this.t.referralPartners.set(id, { ...partner, status: 'ended', endedAt: at })
    return true
  }
}

export class MemoryFederationRepository extends MemoryRepository implements FederationRepository {
  async findKey(organizationId: string) {
    const key = this.t.federationKeys.get(organizationId)
    return key && copy(key)
  }
  async insertKey(key: FederationKey) {
    if (!this.t.federationKeys.has(key.organizationId)) this.t.federationKeys.set(key.organizationId, copy(key))
  }
  async insertInvitation(invitation: PairingInvitation) {
    this.t.pairingInvitations.set(invitation.secretDigest, copy(invitation))
  }
  async takeInvitation(secretDigest: string, now: Date) {
    const invitation = this.t.pairingInvitations.get(secretDigest)
    if (!invitation) return undefined
    this.t.pairingInvitations.delete(secretDigest)
    return invitation.expiresAt > now ? copy(invitation) : undefined
  }
  async rememberMessage(pairingId: string, messageId: string, at: Date) {
    const key = `${pairingId}|${messageId}`
    if (this.t.seenMessages.has(key)) return false
    this.t.seenMessages.set(key, at)
    return true
  }
  async purge(seenBy: Date, limit: number) {
    const seen = [...this.t.seenMessages].filter(([, at]) => at <= seenBy).slice(0, limit)
    for (const [key] of seen) this.t.seenMessages.delete(key)
    const expired = [...this.t.pairingInvitations.values()].filter((i) => i.expiresAt <= seenBy).slice(0, limit - seen.length)
    for (const invitation of expired) this.t.pairingInvitations.delete(invitation.secretDigest)
    return seen.length + expired.length
  }
}
