import type { Service, ServiceStatus } from '../../../domain/services/service'
import type { Page, PageRequest } from '../../../domain/shared/page'

/** Which services a list holds (docs/api/services.md "Listing services"): archived ones only when asked. */
export interface ServiceFilter {
  partnerId?: string
  status?: ServiceStatus
  includeArchived?: boolean
}

export interface ServiceRepository {
  insert(service: Service): Promise<void>
  update(service: Service): Promise<void>
  findById(organizationId: string, id: string): Promise<Service | undefined>
  /** The organization's services the filter keeps, newest first (id as tie-break), paged, and how many there are. */
  list(organizationId: string, filter: ServiceFilter, page: PageRequest): Promise<Page<Service>>
}
