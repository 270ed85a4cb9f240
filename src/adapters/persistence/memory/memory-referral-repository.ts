import type { ReferralFilter, ReferralRepository } from '../../../application/ports/repositories/referral-repository'
import type { Referral } from '../../../domain/referrals/referral'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { inOrganization, MemoryRepository, page } from './memory-repository'

// Both organizations of a referral may be on one instance: the key is the organization's and the id.
const keyOf = (organizationId: string, id: string) => `${organizationId}/${id}`

export class MemoryReferralRepository extends MemoryRepository implements ReferralRepository {
  async insert(referral: Referral) {
    const key = keyOf(referral.organizationId, referral.id)
    if (this.t.referrals.has(key)) return false
    this.t.referrals.set(key, copy(referral))
    return true
  }
  async update(referral: Referral) {
    const key = keyOf(referral.organizationId, referral.id)
    if (this.t.referrals.has(key)) this.t.referrals.set(key, copy(referral))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.referrals.get(keyOf(organizationId, id)), organizationId)
  }
  async list(organizationId: string, filter: ReferralFilter, request: PageRequest) {
    const kept = [...this.t.referrals.values()].filter(
      (r) =>
        r.organizationId === organizationId &&
        (filter.direction === undefined || r.direction === filter.direction) &&
        (filter.status === undefined || r.status === filter.status) &&
        (filter.partnerId === undefined || r.partnerId === filter.partnerId),
    )
    return page(kept.sort(newestFirst), request)
  }
}
