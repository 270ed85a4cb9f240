import type { Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { bulkUpdateErrors } from '../../domain/needs/bulk-update'
import type { Need, NeedStatus } from '../../domain/needs/need'
import { authorize } from '../auth/authorize'
import { isServiceError, type ServiceError } from '../errors'
import type { UpdateNeed } from './update-need'

// docs/api/needs.md "Changing many needs at once"
export interface BulkUpdateNeedsInput {
  /** Need ids or reference numbers, as `PUT /api/needs/{id}` takes them. */
  ids: string[]
  set: { assignedTo?: string | null; status?: NeedStatus; partnerId?: string }
}

/** What came of one need: the need as updated (and as the caller reads it), or the error its own update met. */
export type BulkUpdateResult = { id: string; need: Need } | { id: string; error: ServiceError }

/**
 * The same change made to many needs, each by `UpdateNeed` as a change of that need alone: its own
 * transaction, its checks of visibility, status and references, its audit event, history and notifications.
 * One need's refusal stops none of the others. A failure that is no rule (the database away) ends the run:
 * the needs before it are changed, and changing them again is no change.
 */
export class BulkUpdateNeeds {
  constructor(private readonly updateNeed: UpdateNeed) {}

  async execute(actor: Actor, input: BulkUpdateNeedsInput): Promise<BulkUpdateResult[]> {
    authorize(actor, 'needs:update')
    InvalidError.throwIfAny(bulkUpdateErrors(input.ids, input.set), 'The bulk change is not valid')
    const results: BulkUpdateResult[] = []
    for (const id of input.ids) {
      try {
        results.push({ id, need: await this.updateNeed.execute(actor, id, input.set) })
      } catch (error) {
        if (!isServiceError(error)) throw error
        results.push({ id, error })
      }
    }
    return results
  }
}
