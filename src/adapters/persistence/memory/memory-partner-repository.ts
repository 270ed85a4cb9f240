import { newestFirst } from '../../../domain/shared/page'
import type { PartnerRepository } from '../../../application/ports/repositories/partner-repository'
import type { Partner } from '../../../domain/partners/partner'
import { copy } from './memory-store'
import { MemoryRepository, inOrganization } from './memory-repository'

export class MemoryPartnerRepository extends MemoryRepository implements PartnerRepository {
  async insert(partner: Partner) {
    this.t.partners.set(partner.id, copy(partner))
  }
  async update(partner: Partner) {
    if (this.t.partners.get(partner.id)?.organizationId === partner.organizationId) this.t.partners.set(partner.id, copy(partner))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.partners.get(id), organizationId)
  }
  async listAll(organizationId: string) {
    return [...this.t.partners.values()]
      .filter((p) => p.organizationId === organizationId)
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async clearDefaultExcept(organizationId: string, keepId: string) {
    for (const partner of this.t.partners.values()) {
      if (partner.organizationId === organizationId && partner.id !== keepId) partner.isDefault = false
    }
  }
}
