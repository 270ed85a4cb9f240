import type { ServiceFilter, ServiceRepository } from '../../../application/ports/repositories/service-repository'
import type { Service } from '../../../domain/services/service'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { inOrganization, MemoryRepository, page } from './memory-repository'

export class MemoryServiceRepository extends MemoryRepository implements ServiceRepository {
  async insert(service: Service) {
    this.t.services.set(service.id, copy(service))
  }
  async update(service: Service) {
    if (this.t.services.get(service.id)?.organizationId === service.organizationId) this.t.services.set(service.id, copy(service))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.services.get(id), organizationId)
  }
  async list(organizationId: string, filter: ServiceFilter, request: PageRequest) {
    const kept = [...this.t.services.values()].filter(
      (s) =>
        s.organizationId === organizationId &&
        (filter.partnerId === undefined || s.partnerId === filter.partnerId) &&
        (filter.status === undefined || s.status === filter.status) &&
        (filter.includeArchived || !s.isArchived),
    )
    return page(kept.sort(newestFirst), request)
  }
}
