import type { Need, NeedChange, NeedStatus } from '../../../domain/needs/need'
import type { Keyset, Page, PageRequest } from '../../../domain/shared/page'

/** Filters of a need list; `partnerId` doubles as the scope of partner roles. */
export interface NeedFilter {
  statuses?: NeedStatus[]
  partnerId?: string
  assignedTo?: string
  constituentId?: string
  /** Open needs due before this time only (`isOpenAndDueBefore`), by the index of open needs' due dates. */
  openDueBefore?: Date
}

export interface NeedRepository {
  insert(need: Need): Promise<void>
  /** Adds several at once (an import's batch): one statement, not one per need. */
  insertMany(needs: readonly Need[]): Promise<void>
  update(need: Need): Promise<void>
  /**
   * Empties the `customFields` of up to `limit` RESOLVED needs unchanged since before `before` whose text is
   * still there (retention, docs/privacy.md); answers their ids. A need written again has its text back in
   * reach of the next run.
   */
  clearResolvedText(organizationId: string, before: Date, at: Date, limit: number): Promise<string[]>
  findById(organizationId: string, id: string): Promise<Need | undefined>
  findByReferenceNumber(organizationId: string, referenceNumber: string): Promise<Need | undefined>
  /** The needs created at exactly one of these times (indexed): where an import's rows would be (docs/api.md "Import"). */
  findCreatedAt(organizationId: string, times: readonly Date[]): Promise<Need[]>
  /** Newest `createdAt` first, `id` as tie-break; with `openDueBefore`, soonest `dueDate` first, `id` as tie-break. */
  list(organizationId: string, filter: NeedFilter, page: PageRequest): Promise<Page<Need>>
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
}
