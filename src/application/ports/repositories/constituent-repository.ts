import type { Constituent, Household } from '../../../domain/constituents/constituent'
import type { MatchKeys } from '../../../domain/constituents/matching'
import type { ConstituentQuery } from '../../../domain/constituents/search'
import type { Keyset, Page, PageRequest } from '../../../domain/shared/page'

export interface ConstituentRepository {
  insert(constituent: Constituent): Promise<void>
  /** Adds several at once (an import's batch): one statement, not one per constituent. */
  insertMany(constituents: readonly Constituent[]): Promise<void>
  update(constituent: Constituent): Promise<void>
  delete(organizationId: string, id: string): Promise<void>
  findById(organizationId: string, id: string): Promise<Constituent | undefined>
  /** The constituents of the organization with these ids, in no order; unknown ids are left out. One query. */
  findByIds(organizationId: string, ids: readonly string[]): Promise<Constituent[]>
  /**
   * Constituents sharing at least one of the keys, the one with `excludeId` left out; at most `limitPerKey`
   * per key. Each key is an indexed lookup, so the cost does not grow with the number of constituents.
   */
  findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number): Promise<Constituent[]>
  /**
   * Constituents sharing a key with any of `keys` (a batch's), in no order; at most `limitPerKey` for each
   * kind of key. One indexed lookup per kind of key, whatever the number of keys.
   */
  findSharingKeys(organizationId: string, keys: readonly MatchKeys[], limitPerKey: number): Promise<Constituent[]>
  /**
   * Matching as `parseConstituentQuery` describes; newest first, `id` as tie-break. The total of a query is
   * counted up to `countCap(page, countUpTo)` (SEARCH_TOTAL_BOUND when not given) and marked
   * `totalIsLowerBound` past it, so a common name costs about a page, not every match; without a query it is
   * exact (kept by the stores, not counted).
   */
  search(organizationId: string, query: ConstituentQuery, page: PageRequest, countUpTo?: number): Promise<Page<Constituent>>
  /** Up to `limit` constituents matching `query` after `after` (from the start without it), in list order: an export's batch. */
  searchAfter(organizationId: string, query: ConstituentQuery, after: Keyset | undefined, limit: number): Promise<Constituent[]>
  listByHousehold(organizationId: string, householdId: string): Promise<Constituent[]>
  /** The constituents with this E.164 phone (indexed). */
  findByPhone(organizationId: string, phone: string): Promise<Constituent[]>
  /**
   * Up to `limit` people not erased whose record and needs have all been unchanged since before `before`:
   * those retention erases (docs/privacy.md).
   */
  idleSince(organizationId: string, before: Date, limit: number): Promise<Constituent[]>
  insertHousehold(household: Household): Promise<void>
  insertHouseholds(households: readonly Household[]): Promise<void>
  /** Removes a household that no constituent and no need points at any more; false when one still does. */
  deleteHouseholdIfUnused(organizationId: string, householdId: string): Promise<boolean>
  householdExists(organizationId: string, householdId: string): Promise<boolean>
}
