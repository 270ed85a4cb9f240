import type { Need, NeedChange, NeedStatus } from '../../../domain/needs/need'
import type { NeedSearch, NeedSort } from '../../../domain/needs/search'
import type { Keyset, Page, PageRequest } from '../../../domain/shared/page'

/** Filters of a need list; `partnerId` doubles as the scope of partner roles. */
export interface NeedFilter {
  statuses?: NeedStatus[]
  partnerId?: string
  assignedTo?: string
  constituentId?: string
  /** Open needs due before this time only (`isOpenAndDueBefore`), by the index of open needs' due dates. */
  openDueBefore?: Date
  /**
   * Needs created in a period: at or after `createdFrom`, before `createdTo` (either bound alone too); and resolved
   * in one, by the resolution that stands (`resolvedAt`: a reopened need has none). A report's figure lists its needs so.
   */
  createdFrom?: Date
  createdTo?: Date
  resolvedFrom?: Date
  resolvedTo?: Date
  /** Only the needs marked for attention (docs/api/needs.md "Attention"). */
  needsAttention?: true
  /** Needs with every word of the search among the terms of the kinds it names (docs/api/needs.md "Search and sort"). */
  search?: NeedSearch
}

/** A new need as the use case makes it: its reference number is the store's to take (`insertMany`). */
export type UnnumberedNeed = Omit<Need, 'referenceNumber'>

export interface NeedRepository {
  /** Stores a need with the reference number it has (seeds and tests). */
  insert(need: Need): Promise<void>
  /**
   * Adds new needs of one organization (one, a creation; several, an import's batch, in one statement), each
   * numbered as it goes in, in input order, from the organization's sequence inside the caller's transaction:
   * gap-free, never shared by concurrent transactions, given back when the transaction rolls back
   * (docs/api/needs.md "Reference numbers"). Resolves once the insert has its place among the transaction's
   * statements; `referenceNumbers` (in input order) once the store has taken them, which on PostgreSQL is
   * when the server answers: await them only where they are needed. They fail with the insert, which also
   * fails the unit of work.
   */
  insertMany(needs: readonly UnnumberedNeed[]): Promise<{ referenceNumbers: Promise<string[]> }>
  update(need: Need): Promise<void>
  /**
   * Empties the `customFields` of up to `limit` RESOLVED needs unchanged since before `before` whose text is
   * still there (retention, docs/privacy.md); answers their ids. A need written again has its text back in
   * reach of the next run.
   */
  clearResolvedText(organizationId: string, before: Date, at: Date, limit: number): Promise<string[]>
  /**
   * Indexes the text (description, names) of up to `limit` needs of the search index's backlog, the needs on
   * file when it came (docs/api/needs.md "Search and sort"), and takes them off it; answers how many, 0 once
   * none is left. A need written meanwhile has left the backlog with that write, which indexed it.
   */
  indexTextBacklog(limit: number): Promise<number>
  findById(organizationId: string, id: string): Promise<Need | undefined>
  findByReferenceNumber(organizationId: string, referenceNumber: string): Promise<Need | undefined>
  /** The needs created at exactly one of these times (indexed): where an import's rows would be (docs/api/exports-import.md "Import"). */
  findCreatedAt(organizationId: string, times: readonly Date[]): Promise<Need[]>
  /**
   * Newest `createdAt` first, `id` as tie-break; with `openDueBefore`, soonest `dueDate` first, `id` as tie-break;
   * in `sort`'s order (`needOrder`) when given. With a search, the total is counted up to `countCap(page,
   * SEARCH_TOTAL_BOUND)` and marked `totalIsLowerBound` past it, as constituent search's.
   */
  list(organizationId: string, filter: NeedFilter, page: PageRequest, sort?: NeedSort): Promise<Page<Need>>
  /** Up to `limit` needs matching `filter` after `after` (from the start without it), in list order: an export's batch. */
  listAfter(organizationId: string, filter: NeedFilter, after: Keyset | undefined, limit: number): Promise<Need[]>
  appendChanges(changes: NeedChange[]): Promise<void>
  /** Oldest first, in the order they were appended. */
  listChanges(organizationId: string, needId: string, page: PageRequest): Promise<Page<NeedChange>>
  /** Points every need of one constituent at another (a merge) and at its household. */
  moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string): Promise<void>
  /** Points every need of the constituent at its (new) household. */
  setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string): Promise<void>
  /** The newest needs (at most 20) of any of these constituents, newest first; with `openOnly`, not RESOLVED ones. */
  newestOfConstituents(organizationId: string, constituentIds: string[], openOnly?: boolean): Promise<Need[]>
  /** Marks the need for attention, or clears the mark; nothing else of it changes (its `updatedAt` neither). */
  setAttention(organizationId: string, needId: string, attention: boolean): Promise<void>
}
