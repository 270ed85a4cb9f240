import { CONTACT_FIELDS, type ContactDetails } from '../../domain/constituents/contact'
import { InvalidError } from '../../domain/errors'
import type { ReferralPartner } from '../../domain/federation/referral-partner'
import { statusPayloadOf, type OfferedService } from '../../domain/referrals/messages'
import { advances, heardBy } from '../../domain/referrals/referral'
import type { AuditTrail } from '../audit/audit-trail'
import type { FederationHandler, ReceivedMessage, UndeliveredMessage } from '../federation/federation-handlers'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { ReferralJournal } from './referral-journal'

/** A message about a referral ran out of tries: the referral shows "not delivered" and may be sent again. */
export async function notDelivered(r: Repositories, { organizationId, referralId }: UndeliveredMessage): Promise<void> {
  const referral = referralId ? await r.referrals.findById(organizationId, referralId) : undefined
  if (referral) await r.referrals.update({ ...referral, notDelivered: true })
}

/** The referral of a message, on the pairing it came by; none (a message about another pairing's) is nothing to do. */
async function referralOf(r: Repositories, partner: ReferralPartner, message: ReceivedMessage) {
  const referral = message.referralId ? await r.referrals.findById(partner.organizationId, message.referralId) : undefined
  return referral?.referralPartnerId === partner.id ? referral : undefined
}

/** `referral.status`: the other side's move, taken only when it moves the referral forward (a late one changes nothing). */
export class ReferralStatusHandler implements FederationHandler {
  readonly undelivered = notDelivered

  constructor(private readonly journal: ReferralJournal) {}

  async handle(r: Repositories, partner: ReferralPartner, message: ReceivedMessage): Promise<undefined> {
    const payload = statusPayloadOf(message.payload)
    if (!payload) throw InvalidError.field('/payload', 'is no referral status')
    const referral = await referralOf(r, partner, message)
    if (!referral || !advances(referral.status, payload.status)) return
    if (!heardBy(referral.direction, payload.status)) throw InvalidError.field('/payload/status', 'is no move of the other side')
    const { status, at, outcome, note } = payload
    const move = { status, at: new Date(at), by: { organization: partner.name }, ...(note ? { note } : {}) }
    await this.journal.moved(r, referral, move, { organizationId: partner.organizationId }, outcome ? { outcome } : {})
  }
}

/**
 * `referral.consent_revoked` at the receiver: the values it took from the referral are erased from the person and the
 * need, where they still hold them (a value the receiver had on file, or changed since, stays); the need and the referral,
 * and so the counts, stay.
 */
export class ReferralConsentRevokedHandler implements FederationHandler {
  readonly undelivered = notDelivered

  constructor(
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async handle(r: Repositories, partner: ReferralPartner, message: ReceivedMessage): Promise<undefined> {
    const referral = await referralOf(r, partner, message)
    if (referral?.direction !== 'in' || referral.consentRevokedAt) return
    const { organizationId } = partner
    const taken = referral.takenValues ?? {}
    const need = await r.needs.findById(organizationId, referral.needId)
    const now = this.clock.now()
    if (need) {
      await r.needs.update({ ...need, customFields: without(need.customFields, taken), updatedAt: now })
      const person = need.constituentId ? await r.constituents.findById(organizationId, need.constituentId) : undefined
      if (person) await r.constituents.update({ ...without(person, taken), updatedAt: now })
    }
    const { takenValues: _erased, ...revoked } = referral
    await r.referrals.update({ ...revoked, consentRevokedAt: now, updatedAt: now })
    const fields = Object.keys(taken)
    await this.audit.record(r, { organizationId }, { action: 'erase', recordType: 'referral', recordId: referral.id, fields })
  }
}

/** A record without the contact values that still are the ones taken. */
function without<T extends object>(record: T, taken: ContactDetails): T {
  const kept = { ...record } as Record<string, unknown>
  for (const field of CONTACT_FIELDS) if (taken[field] !== undefined && kept[field] === taken[field]) delete kept[field]
  return kept as unknown as T
}

/** `referral.services`, a request: the receiver's active services that take referrals now. */
export class ReferralServicesHandler implements FederationHandler {
  async handle(r: Repositories, partner: ReferralPartner): Promise<{ services: OfferedService[] }> {
    const services: OfferedService[] = []
    for (let page = 1; ; page++) {
      const found = await r.services.list(partner.organizationId, { status: 'active' }, { page, limit: 100 })
      for (const { id, name, description, acceptingReferrals } of found.items)
        if (acceptingReferrals) services.push({ id, name, ...(description ? { description } : {}) })
      if (page * 100 >= found.total) return { services }
    }
  }
}
