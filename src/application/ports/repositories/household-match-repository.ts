import type { HouseholdMatch, MatchStatus } from '../../../domain/constituents/household-match'
import type { Page, PageRequest } from '../../../domain/shared/page'

export interface HouseholdMatchRepository {
  insert(match: HouseholdMatch): Promise<void>
  /** A new person's matches, all at once (one statement on SQL stores). */
  insertMany(matches: readonly HouseholdMatch[]): Promise<void>
  update(match: HouseholdMatch): Promise<void>
  findById(organizationId: string, id: string): Promise<HouseholdMatch | undefined>
  /** Newest first, `id` as tie-break. */
  list(organizationId: string, status: MatchStatus | undefined, page: PageRequest): Promise<Page<HouseholdMatch>>
  /** Every match naming the constituent on either side. */
  listInvolving(organizationId: string, constituentId: string): Promise<HouseholdMatch[]>
  delete(organizationId: string, id: string): Promise<void>
}
