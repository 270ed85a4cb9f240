import type { FieldError } from '../errors'
import { NEED_STATUSES, type NeedStatus } from '../needs/need'
import { FieldChecks, type TextRule } from '../shared/fields'
import { NEED_SORTS, type NeedSort } from '../needs/search'

// docs/api/access.md "Saved views"
/** A member's named filters of the inbox, kept so they follow the member from device to device. */
export interface SavedView {
  id: string
  organizationId: string
  memberId: string
  name: string
  filters: SavedViewFilters
  createdAt: Date
  updatedAt: Date
}

/** The query parameters of `GET /api/needs` a view keeps, in the shapes the query takes them. */
export interface SavedViewFilters {
  status?: NeedStatus[]
  partnerId?: string
  assignedTo?: string
  constituentId?: string
  overdue?: boolean
  dueBefore?: string
  createdFrom?: string
  createdTo?: string
  resolvedFrom?: string
  resolvedTo?: string
  attention?: boolean
  q?: string
  sort?: NeedSort
}

export const SAVED_VIEW_NAME = { minLength: 1, maxLength: 60 } as const satisfies TextRule
export const VIEW_SEARCH = { maxLength: 200 } as const satisfies TextRule
export const MAX_SAVED_VIEWS = 50

/** The list's bounds of when needs were created or resolved: a report's figure's needs (docs/api/needs.md "Reports"). */
export const PERIOD_FILTERS = ['createdFrom', 'createdTo', 'resolvedFrom', 'resolvedTo'] as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const FILTERS: ReadonlyArray<keyof SavedViewFilters> = [
  'status',
  'partnerId',
  'assignedTo',
  'constituentId',
  'overdue',
  'dueBefore',
  ...PERIOD_FILTERS,
  'attention',
  'q',
  'sort',
]

const anId = (v: unknown) => (typeof v === 'string' && UUID.test(v) ? undefined : 'must be a UUID')
const aTime = (v: unknown) =>
  typeof v === 'string' && v.length <= 27 && !Number.isNaN(Date.parse(v)) ? undefined : 'must be a date and time (ISO 8601)'
const aStatus = (v: unknown) => (NEED_STATUSES.includes(v as NeedStatus) ? undefined : `must be one of: ${NEED_STATUSES.join(', ')}`)

/** A view's name and filters; on an update either may be left out. Names are kept trimmed. */
export function savedViewErrors(input: { name?: unknown; filters?: unknown }, mode: 'create' | 'update'): FieldError[] {
  const presence = mode === 'create' ? 'required' : 'optional'
  const checks = new FieldChecks()
    .text('/name', input.name, SAVED_VIEW_NAME, { presence, trim: true })
    .check('/filters', input.filters, presence, (v) => (typeof v === 'object' && !Array.isArray(v) ? undefined : 'must be an object'))
  if (checks.errors.some((e) => e.path === '/filters') || input.filters === undefined) return checks.errors
  const filters = input.filters as Record<string, unknown>
  for (const key of Object.keys(filters)) {
    if (!FILTERS.includes(key as keyof SavedViewFilters))
      checks.errors.push({ path: `/filters/${key}`, message: 'is not a filter of the needs list' })
  }
  checks
    .list('/filters/status', filters.status, { maxItems: NEED_STATUSES.length, uniqueItems: true }, aStatus, 'optional')
    .check('/filters/status', filters.status, 'optional', (v) => ((v as unknown[]).length === 0 ? 'must have at least 1 item' : undefined))
    .check('/filters/partnerId', filters.partnerId, 'optional', anId)
    .check('/filters/assignedTo', filters.assignedTo, 'optional', anId)
    .check('/filters/constituentId', filters.constituentId, 'optional', anId)
    .boolean('/filters/overdue', filters.overdue, 'optional')
    .check('/filters/dueBefore', filters.dueBefore, 'optional', aTime)
  for (const key of PERIOD_FILTERS) checks.check(`/filters/${key}`, filters[key], 'optional', aTime)
  checks
    .boolean('/filters/attention', filters.attention, 'optional')
    .text('/filters/q', filters.q, VIEW_SEARCH, { presence: 'optional' })
    .oneOf('/filters/sort', filters.sort, NEED_SORTS, 'optional')
  return checks.errors
}
