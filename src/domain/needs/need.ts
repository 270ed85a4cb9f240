// docs/api.md "Needs"
export const NEED_STATUSES = ['NEW', 'IN_PROGRESS', 'PENDING_INTERNAL', 'PENDING_CLIENT', 'RESOLVED', 'ESCALATED'] as const
export type NeedStatus = (typeof NEED_STATUSES)[number]

export const INITIAL_NEED_STATUS: NeedStatus = 'NEW'

export type CustomFields = Record<string, unknown>

export interface Need {
  id: string
  organizationId: string
  partnerId: string
  status: NeedStatus
  customFields: CustomFields
  isConfidential: boolean
  parentNeedId?: string
  assignedTo?: string
  createdBy?: string
  createdAt: Date
  updatedAt: Date
  dueDate?: Date
  constituentId?: string
  householdId?: string
  duplicateWarning?: string
  referenceNumber: string
}

/**
 * Any status but RESOLVED may move to any other; RESOLVED may only be reopened to IN_PROGRESS.
 * Staying in the same status is not a transition and is always allowed.
 */
export function canTransition(from: NeedStatus, to: NeedStatus): boolean {
  if (from === to) return true
  if (from === 'RESOLVED') return to === 'IN_PROGRESS'
  return true
}

export function isOpen(status: NeedStatus): boolean {
  return status !== 'RESOLVED'
}

const HOUR_MS = 3_600_000

export function dueDateFor(createdAt: Date, slaHours: number): Date {
  return new Date(createdAt.getTime() + slaHours * HOUR_MS)
}

/** The first number of an organization's reference sequence. */
export const FIRST_REFERENCE_NUMBER = 1001

export function formatReferenceNumber(shortCode: string | undefined, n: number): string {
  return `${shortCode ?? 'REQ'}-${n}`
}

/** Reference numbers are compared upper-cased: `req-1001` names `REQ-1001`. */
export function normalizeReferenceNumber(input: string): string {
  return input.trim().toUpperCase()
}

/** The fields whose changes are kept in a need's history (docs/api.md "Needs"). */
export const TRACKED_FIELDS = ['status', 'assignedTo', 'partnerId', 'isConfidential'] as const
export type TrackedField = (typeof TRACKED_FIELDS)[number]

export interface NeedChange {
  id: string
  organizationId: string
  needId: string
  field: TrackedField
  from?: string
  to?: string
  changedBy?: string
  changedAt: Date
}

/** The history entries that turning `before` into `after` produces. */
export function changesBetween(before: Need, after: Need): Array<Pick<NeedChange, 'field' | 'from' | 'to'>> {
  return TRACKED_FIELDS.filter((field) => before[field] !== after[field]).map((field) => ({
    field,
    from: before[field] === undefined ? undefined : String(before[field]),
    to: after[field] === undefined ? undefined : String(after[field]),
  }))
}

/** docs/api.md "Errors": `customFields` at most 16 KiB (as JSON) and 50 keys. */
export const CUSTOM_FIELDS_LIMITS = { maxBytes: 16 * 1024, maxKeys: 50 } as const

export function customFieldsTooLarge(customFields: CustomFields): boolean {
  return new TextEncoder().encode(JSON.stringify(customFields)).length > CUSTOM_FIELDS_LIMITS.maxBytes
}
