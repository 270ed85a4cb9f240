import { scopeOf, type Actor } from '../../domain/auth/actor'
import { openDueBeforeOf, type Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { needQueryWords, searchableKinds, type NeedSort } from '../../domain/needs/search'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { NeedFilter } from '../ports/repositories/need-repository'
import type { Repositories } from '../ports/repositories'

/**
 * A list's filters as asked: `overdue` (as of the service's clock) and `dueBefore` bound open needs' due dates;
 * `q` searches (docs/api/needs.md "Search and sort").
 */
export interface NeedListFilter extends Omit<NeedFilter, 'openDueBefore' | 'search'> {
  overdue?: boolean
  dueBefore?: Date
  q?: string
}

// docs/api/conventions.md "Lists"
export class ListNeeds {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, filter: NeedListFilter, page: PageRequest, sort?: NeedSort): Promise<Page<Need>> {
    authorize(actor, 'needs:read')
    const scoped = scopedNeedFilter(actor, filter, this.clock.now())
    if (!scoped) return { items: [], total: 0 }
    const result = await this.repositories.needs.list(actor.organizationId, scoped, page, sort)
    return { ...result, items: result.items.map((need) => redactNeed(actor, need)) }
  }
}

/**
 * The repositories' filter, narrowed to what the actor sees: a partner role's own partner, a search in what
 * it may read of needs (`searchableKinds`); undefined when it sees none of what was asked (no partner, or
 * another partner's needs).
 */
export function scopedNeedFilter(actor: Actor, { overdue, dueBefore, q, ...asked }: NeedListFilter, now: Date): NeedFilter | undefined {
  const scope = scopeOf(actor)
  if (scope.kind === 'none' || (scope.kind === 'partner' && asked.partnerId && asked.partnerId !== scope.partnerId)) return undefined
  const openDueBefore = openDueBeforeOf({ overdue, dueBefore }, now)
  const words = needQueryWords(q)
  const filter: NeedFilter = {
    ...asked,
    ...(openDueBefore ? { openDueBefore } : {}),
    ...(words.length > 0 ? { search: { words, kinds: searchableKinds(actor) } } : {}),
  }
  return scope.kind === 'partner' ? { ...filter, partnerId: scope.partnerId } : filter
}
