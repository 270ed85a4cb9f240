import { partnerScopeOf, type Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { NeedFilter, Repositories } from '../ports/repositories'

// docs/api.md "Lists"
export class ListNeeds {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, filter: NeedFilter, page: PageRequest): Promise<Page<Need>> {
    authorize(actor, 'needs:read')
    const scope = partnerScopeOf(actor)
    if (scope && filter.partnerId && filter.partnerId !== scope) return { items: [], total: 0 }
    const result = await this.repositories.needs.list(actor.organizationId, { ...filter, ...(scope ? { partnerId: scope } : {}) }, page)
    return { ...result, items: result.items.map((need) => redactNeed(actor, need)) }
  }
}
