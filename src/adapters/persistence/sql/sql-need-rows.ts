import type { UnnumberedNeed } from '../../../application/ports/repositories/need-repository'
import type { Need } from '../../../domain/needs/need'
import type * as schema from '../sqlite/schema'
import type { RecordOf } from './row-reader'
import { nullable, present } from './sql-repository'

/** What a need's row keeps inside, never shown: when retention cleared its text. */
export const INSIDE = ['textClearedAt'] as const

/** A need from its record, NULLs left out (one copy): the status column holds only what the domain wrote. */
export function needOf({ textClearedAt: _cleared, ...need }: RecordOf<typeof schema.needs>): Need {
  return need as Need
}

/** A need from a row as drizzle maps it. */
export function toNeed(row: typeof schema.needs.$inferSelect): Need {
  return needOf(present(row))
}

/** A need's row; without a reference number, NULL for the database to number (`insertMany`). */
export function needRow(n: UnnumberedNeed, referenceNumber?: string) {
  return {
    ...n,
    referenceNumber: nullable(referenceNumber),
    parentNeedId: nullable(n.parentNeedId),
    assignedTo: nullable(n.assignedTo),
    createdBy: nullable(n.createdBy),
    dueDate: nullable(n.dueDate),
    resolvedAt: nullable(n.resolvedAt),
    constituentId: nullable(n.constituentId),
    householdId: nullable(n.householdId),
    duplicateWarning: nullable(n.duplicateWarning),
    needsAttention: nullable(n.needsAttention),
    // Any write of the need is new activity: its text is retention's to clear again once it is resolved and idle.
    textClearedAt: null,
  }
}
