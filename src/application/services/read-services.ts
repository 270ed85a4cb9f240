import type { Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import type { ServiceDetail } from '../../domain/services/service'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { ServiceFilter } from '../ports/repositories/service-repository'
import { withTerms } from './service-terms'

// docs/api/services.md: every member reads the organization's whole directory, whichever partner it works for.

export class GetService {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, id: string): Promise<ServiceDetail> {
    authorize(actor, 'services:list')
    const service = await this.repositories.services.findById(actor.organizationId, id)
    if (!service) throw new NotFoundError('Service')
    const [detail] = await withTerms(this.repositories, actor.organizationId, [service])
    return detail!
  }
}

export class ListServices {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, filter: ServiceFilter, page: PageRequest): Promise<Page<ServiceDetail>> {
    authorize(actor, 'services:list')
    const found = await this.repositories.services.list(actor.organizationId, filter, page)
    return { ...found, items: await withTerms(this.repositories, actor.organizationId, found.items) }
  }
}
