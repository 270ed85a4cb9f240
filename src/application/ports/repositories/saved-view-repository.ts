import type { SavedView } from '../../../domain/members/saved-view'
import type { Page, PageRequest } from '../../../domain/shared/page'

/** A member's saved views: every read and write names the organization and the member, and sees no one else's. */
export interface SavedViewRepository {
  /** A name the member has given another view already is a ConflictError (`UNIQUE_CONFLICTS.savedViewName`). */
  insert(view: SavedView): Promise<void>
  /** Saves the name, the filters and `updatedAt`; a name taken by another of the member's views is a ConflictError. */
  update(view: SavedView): Promise<void>
  /** False when the member has no such view. */
  delete(organizationId: string, memberId: string, id: string): Promise<boolean>
  findById(organizationId: string, memberId: string, id: string): Promise<SavedView | undefined>
  /** Oldest first, `id` as tie-break: the order the member made them in. */
  list(organizationId: string, memberId: string, page: PageRequest): Promise<Page<SavedView>>
  count(organizationId: string, memberId: string): Promise<number>
}
