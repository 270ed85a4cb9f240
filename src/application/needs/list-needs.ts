import { scopeOf, type Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { NeedFilter } from '../ports/repositories/need-repository'
import type { Repositories } from '../ports/repositories'

// docs/api.md "Lists"
export class ListNeeds {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, filter: NeedFilter, page: PageRequest): Promise<Page<Need>> {
    authorize(actor, 'needs:read')
    const scoped = scopedNeedFilter(actor, filter)
    if (!scoped) return { items: [], total: 0 }
    const result = await this.repositories.needs.list(actor.organizationId, scoped, page)
    return { ...result, items: result.items.map((need) => redactNeed(actor, need)) }
  }
}

/**
 * The filter narrowed to what the actor sees: a partner role's own partner; undefined when it sees none of
 * what was asked (no partner, or another partner's needs).
 */
export function scopedNeedFilter(actor: Actor, filter: NeedFilter): NeedFilter | undefined {
  const scope = scopeOf(actor)
  if (scope.kind === 'none' || (scope.kind === 'partner' && filter.partnerId && filter.partnerId !== scope.partnerId)) return undefined
  return scope.kind === 'partner' ? { ...filter, partnerId: scope.partnerId } : filter
}
