import { NotFoundError } from '../../domain/errors'
import type { ReferralPartner } from '../../domain/federation/referral-partner'
import { REFERRAL_STATUS, type StatusPayload } from '../../domain/referrals/messages'
import type { Referral, ReferralMove } from '../../domain/referrals/referral'
import type { AuditSubject, AuditTrail } from '../audit/audit-trail'
import type { FederationOutbox } from '../federation/federation-outbox'
import type { Repositories } from '../ports/repositories'
import type { WebhookEvents } from '../webhooks/webhook-events'

/**
 * What every move of a referral does on the side it reaches (docs/referrals.md "Moves"): the referral stored with
 * its new status at the end of its history, the `referral.status_changed` webhook event and the audit event.
 */
export class ReferralJournal {
  constructor(
    private readonly channel: FederationOutbox,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  async moved(r: Repositories, referral: Referral, move: ReferralMove, who: AuditSubject, changes: Partial<Referral> = {}) {
    const moved: Referral = { ...referral, ...changes, status: move.status, history: [...referral.history, move], updatedAt: move.at }
    await r.referrals.update(moved)
    await this.events.emit(r, referral.organizationId, 'referral.status_changed', {
      referralId: referral.id,
      needId: referral.needId,
      status: move.status,
    })
    await this.audit.record(r, who, { action: 'update', recordType: 'referral', recordId: referral.id, fields: ['status'] })
    return moved
  }

  /** Tells the other side of a move made here. */
  async tell(r: Repositories, referral: Referral, move: ReferralMove): Promise<void> {
    const payload: StatusPayload = {
      status: move.status,
      at: move.at.toISOString(),
      ...(referral.outcome && move.status === 'completed' ? { outcome: referral.outcome } : {}),
      ...(move.note ? { note: move.note } : {}),
    }
    await this.channel.send(r, await partnerOf(r, referral), { type: REFERRAL_STATUS, referralId: referral.id, payload })
  }
}

/** The active pairing a referral travels on; an ended pairing carries no referral (404). */
export async function partnerOf(
  r: Repositories,
  referral: Pick<Referral, 'organizationId' | 'referralPartnerId'>,
): Promise<ReferralPartner> {
  const partner = await r.referralPartners.findById(referral.organizationId, referral.referralPartnerId)
  if (partner?.status !== 'active') throw new NotFoundError('Referral partner')
  return partner
}

/** The organization's name, as its moves are signed in a referral's history. */
export async function organizationName(r: Repositories, organizationId: string): Promise<string> {
  return (await r.organizations.findById(organizationId))?.name ?? ''
}
