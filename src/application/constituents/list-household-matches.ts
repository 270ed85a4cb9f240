import type { Actor } from '../../domain/auth/actor'
import type { HouseholdMatch, MatchStatus } from '../../domain/constituents/household-match'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'

// docs/constituents.md: an addition, so resolvers can find the matches' ids
export class ListHouseholdMatches {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, status: MatchStatus | undefined, page: PageRequest): Promise<Page<HouseholdMatch>> {
    authorize(actor, 'household-matches:list')
    return this.repositories.householdMatches.list(actor.organizationId, status, page)
  }
}
