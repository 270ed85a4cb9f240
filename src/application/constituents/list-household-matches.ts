import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import type { HouseholdMatch, MatchStatus } from '../../domain/constituents/household-match'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * A match with both people as the caller may see them, enough to judge it without another call. A side is
 * absent once its constituent is gone (merged into another).
 */
export interface MatchForReview extends HouseholdMatch {
  constituent?: Constituent
  candidate?: Constituent
}

/** The matches with their people, redacted for the actor; one lookup for all of them. */
export async function withPeople(r: Repositories, actor: Actor, matches: HouseholdMatch[]): Promise<MatchForReview[]> {
  const ids = [...new Set(matches.flatMap((m) => [m.constituentId, m.candidateConstituentId]))]
  const people = new Map((await r.constituents.findByIds(actor.organizationId, ids)).map((c) => [c.id, withoutHiddenContact(actor, c)]))
  return matches.map((match) => {
    const constituent = people.get(match.constituentId)
    const candidate = people.get(match.candidateConstituentId)
    return { ...match, ...(constituent ? { constituent } : {}), ...(candidate ? { candidate } : {}) }
  })
}

// docs/constituents.md: an addition, so resolvers can find the matches' ids and judge them
export class ListHouseholdMatches {
  constructor(
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, status: MatchStatus | undefined, page: PageRequest): Promise<Page<MatchForReview>> {
    authorize(actor, 'household-matches:list')
    const result = await this.repositories.householdMatches.list(actor.organizationId, status, page)
    const items = await withPeople(this.repositories, actor, result.items)
    await this.audit.constituentsRead(
      actor,
      items.flatMap((match) => [match.constituent, match.candidate]),
    )
    return { ...result, items }
  }
}
