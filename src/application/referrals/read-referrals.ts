import { scopeOf, seesPartner, type Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import { REFERRAL_SERVICES, type OfferedService } from '../../domain/referrals/messages'
import type { Consent, Referral, ReferralMove, ReferralOutcome, ReferralStatus } from '../../domain/referrals/referral'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { FederationChannel } from '../federation/federation-channel'
import { ProviderError } from '../ports/provider-error'
import type { Repositories } from '../ports/repositories'
import type { ReferralFilter } from '../ports/repositories/referral-repository'

/** A referral as either side reads it (docs/referrals.md "Reading referrals"); `consent` on the sender's only. */
export interface ReferralView {
  id: string
  direction: Referral['direction']
  status: ReferralStatus
  referralPartner: { id: string; name: string }
  serviceId: string
  needId: string
  outcome?: ReferralOutcome
  consent?: Consent
  consentRevokedAt?: Date
  notDelivered?: boolean
  history: ReferralMove[]
  createdAt: Date
  updatedAt: Date
}

export async function referralView(r: Repositories, referral: Referral): Promise<ReferralView> {
  const { organizationId, referralPartnerId, partnerId: _partner, takenValues: _taken, ...shown } = referral
  const partner = await r.referralPartners.findById(organizationId, referralPartnerId)
  return { ...shown, referralPartner: { id: referralPartnerId, name: partner?.name ?? '' } }
}

/** The referral the actor may see: another organization's, or another partner's for a partner role, is none. */
export async function findVisibleReferral(r: Repositories, actor: Actor, id: string): Promise<Referral> {
  const referral = await r.referrals.findById(actor.organizationId, id)
  if (!referral || !seesPartner(actor, referral.partnerId)) throw new NotFoundError('Referral')
  return referral
}

/** `GET /api/referrals`: newest first, by direction and status; partner roles see their partner's only. */
export class ListReferrals {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, filter: Omit<ReferralFilter, 'partnerId'>, page: PageRequest): Promise<Page<ReferralView>> {
    authorize(actor, 'referrals:read')
    const scope = scopeOf(actor)
    if (scope.kind === 'none') return { items: [], total: 0 }
    const scoped = scope.kind === 'partner' ? { ...filter, partnerId: scope.partnerId } : filter
    const found = await this.repositories.referrals.list(actor.organizationId, scoped, page)
    return { ...found, items: await Promise.all(found.items.map((f) => referralView(this.repositories, f))) }
  }
}

/** `GET /api/referrals/{id}`. */
export class GetReferral {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, id: string): Promise<ReferralView> {
    authorize(actor, 'referrals:read')
    return referralView(this.repositories, await findVisibleReferral(this.repositories, actor, id))
  }
}

/**
 * `GET /api/referral-partners/{id}/services`: the partner's services that take referrals now, asked of its instance
 * at once (a `referral.services` request). An answer of another shape is the partner's failure (502).
 */
export class ListPartnerServices {
  constructor(private readonly channel: FederationChannel) {}

  async execute(actor: Actor, referralPartnerId: string): Promise<OfferedService[]> {
    authorize(actor, 'referrals:send')
    const answer = await this.channel.request(actor.organizationId, referralPartnerId, { type: REFERRAL_SERVICES, payload: {} })
    const services = (answer as { services?: unknown }).services
    const offered = (s: unknown) => typeof (s as OfferedService)?.id === 'string' && typeof (s as OfferedService).name === 'string'
    if (!Array.isArray(services) || !services.every(offered))
      throw new ProviderError('Partner instance failed', "the partner's instance answered no list of services", false)
    return services.map(({ id, name, description }: OfferedService) => ({
      id,
      name,
      ...(typeof description === 'string' ? { description } : {}),
    }))
  }
}
