import type { Referral, ReferralDirection, ReferralStatus } from '../../../domain/referrals/referral'
import type { Page, PageRequest } from '../../../domain/shared/page'

/** Which referrals a list holds (docs/referrals.md "Reading referrals"). */
export interface ReferralFilter {
  direction?: ReferralDirection
  status?: ReferralStatus
  /** A partner's members see its referrals only. */
  partnerId?: string
}

/** Each organization's side of its referrals, keyed by the organization and the referral's id (the same on both sides). */
export interface ReferralRepository {
  /** False when the organization holds a referral of that id already (a referral sent again): nothing is written. */
  insert(referral: Referral): Promise<boolean>
  update(referral: Referral): Promise<void>
  findById(organizationId: string, id: string): Promise<Referral | undefined>
  /** The organization's referrals the filter keeps, newest first (id as tie-break), paged, and how many there are. */
  list(organizationId: string, filter: ReferralFilter, page: PageRequest): Promise<Page<Referral>>
}
