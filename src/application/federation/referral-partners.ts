import type { Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import { PAIRING_ENDED } from '../../domain/federation/channel'
import type { PairingStatus, ReferralPartner } from '../../domain/federation/referral-partner'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { FederationChannel } from './federation-channel'
import type { FederationHandler } from './federation-handlers'

/** A pairing as its organization's admin sees it. */
export interface ReferralPartnerView {
  id: string
  name: string
  baseUrl: string
  status: PairingStatus
  createdAt: Date
}

export function partnerView({ id, name, baseUrl, status, createdAt }: ReferralPartner): ReferralPartnerView {
  return { id, name, baseUrl, status, createdAt }
}

/** `GET /api/referral-partners`: the organization's active pairings, oldest first. */
export class ListReferralPartners {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor): Promise<ReferralPartnerView[]> {
    authorize(actor, 'referral-partners:manage')
    return (await this.repositories.referralPartners.listActive(actor.organizationId)).map(partnerView)
  }
}

/**
 * `DELETE /api/referral-partners/{id}`: ends the pairing here at once, and at the partner's instance by a
 * `pairing.ended` message through the outbox (retried while it is down).
 */
export class EndPairing {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly channel: FederationChannel,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    authorize(actor, 'referral-partners:manage')
    await this.unitOfWork.run(async (r) => {
      const partner = await r.referralPartners.findById(actor.organizationId, id)
      if (!partner || !(await r.referralPartners.end(actor.organizationId, id, this.clock.now())))
        throw new NotFoundError('Referral partner')
      await this.channel.send(r, partner, { type: PAIRING_ENDED, payload: {} })
      await this.audit.record(r, actor, { action: 'delete', recordType: 'referral_partner', recordId: id })
    })
  }
}

/** `pairing.ended` at its receiver: the partner ended the pairing, so it ends here too. */
export class PairingEndedHandler implements FederationHandler {
  constructor(
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async handle(r: Repositories, partner: ReferralPartner): Promise<undefined> {
    const { organizationId, id } = partner
    if (await r.referralPartners.end(organizationId, id, this.clock.now()))
      await this.audit.record(r, { organizationId }, { action: 'delete', recordType: 'referral_partner', recordId: id })
  }
}
