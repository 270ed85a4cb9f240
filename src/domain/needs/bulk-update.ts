import type { FieldError } from '../errors'
import { FieldChecks, textProblem, type ListRule } from '../shared/fields'
import { REFERENCE_NUMBER } from './need'

// docs/api/needs.md "Changing many needs at once"
/** The needs one bulk change names: ids or reference numbers, each once, at most 100. */
export const BULK_NEED_IDS = { minItems: 1, maxItems: 100, uniqueItems: true } as const satisfies ListRule & { minItems: number }

/** What a bulk change may set on each need: the fields an inbox changes for many needs at once. */
export const BULK_FIELDS = ['assignedTo', 'status', 'partnerId'] as const

/** The request's own problems, answered for the whole request: no need is changed. Each need's are its own. */
export function bulkUpdateErrors(ids: unknown, set: object): FieldError[] {
  const checks = new FieldChecks()
    .list('/ids', ids, BULK_NEED_IDS, (id) => textProblem(id, { minLength: 1, ...REFERENCE_NUMBER }))
    .check('/ids', ids, 'required', (v) => (Array.isArray(v) && v.length === 0 ? 'must name at least one need' : undefined))
    .check('/set', set, 'required', (v) =>
      Object.values(v as object).some((value) => value !== undefined) ? undefined : `must set at least one of: ${BULK_FIELDS.join(', ')}`,
    )
  return checks.errors
}
