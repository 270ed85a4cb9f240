import { CONTACT_FIELDS, readContactDetails } from '../constituents/contact'
import type { FieldError } from '../errors'
import { FieldChecks, FREE_TEXT, type TextRule } from '../shared/fields'
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting'
import { ILL_FORMED_TEXT, illFormedTextAt } from '../shared/unicode'

// docs/api/needs.md "Needs"
export const NEED_STATUSES = ['NEW', 'IN_PROGRESS', 'PENDING_INTERNAL', 'PENDING_CLIENT', 'RESOLVED', 'ESCALATED'] as const
export type NeedStatus = (typeof NEED_STATUSES)[number]

export const INITIAL_NEED_STATUS: NeedStatus = 'NEW'

export type CustomFields = Record<string, unknown>

/**
 * The `customFields` keys the service itself gives a meaning to: the description intake keeps, and the person's
 * contact keys. An export gives each a column of its own (docs/api/exports-import.md "Exports").
 */
export const KNOWN_CUSTOM_FIELDS: readonly string[] = ['description', ...CONTACT_FIELDS]

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
  /** Whether staff set `dueDate` (kept through a move to another partner) rather than the partner's SLA. */
  dueDateSetByHand: boolean
  /** When the need was last resolved; absent while it is open (a reopened need loses it). */
  resolvedAt?: Date
  constituentId?: string
  householdId?: string
  duplicateWarning?: string
  referenceNumber: string
  /**
   * A text came from the person after all their needs were resolved, and no member has answered it yet
   * (docs/api/needs.md "Attention"); absent otherwise.
   */
  needsAttention?: true
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

/**
 * Whether a need is still to be done before `before`: open (not RESOLVED) and due earlier. A resolved need is
 * due no more. The lists' `dueBefore` and `overdue`, the reports' and the digest's overdue counts all keep
 * this rule; the repositories write it in SQL as `status <> 'RESOLVED' AND due_date < before`, on the index
 * `needs_open_by_due`.
 */
export function isOpenAndDueBefore(need: Pick<Need, 'status' | 'dueDate'>, before: Date): boolean {
  return isOpen(need.status) && need.dueDate !== undefined && need.dueDate.getTime() < before.getTime()
}

/**
 * Overdue: still open and past its due date as of `now`, the service's clock (a need without one never is;
 * docs/api/needs.md "Needs").
 */
export function isOverdue(need: Pick<Need, 'status' | 'dueDate'>, now: Date): boolean {
  return isOpenAndDueBefore(need, now)
}

const HOUR_MS = 3_600_000

export function dueDateFor(createdAt: Date, slaHours: number): Date {
  return new Date(createdAt.getTime() + slaHours * HOUR_MS)
}

/** The bound of a list's due filter: `overdue` asks for open needs due before now; with `dueBefore` too, the earlier of both. */
export function openDueBeforeOf(filter: { overdue?: boolean; dueBefore?: Date }, now: Date): Date | undefined {
  const bounds = [filter.overdue ? now : undefined, filter.dueBefore].filter((d): d is Date => d !== undefined)
  return bounds.length === 0 ? undefined : new Date(Math.min(...bounds.map((d) => d.getTime())))
}

/**
 * Whole hours from creation to resolution, rounded down and never below 0 (a clock stepped back): what the
 * reports' medians count. The databases' triggers compute the same.
 */
export function hoursToResolve(need: Pick<Need, 'createdAt'>, resolvedAt: Date): number {
  return Math.max(0, Math.floor((resolvedAt.getTime() - need.createdAt.getTime()) / HOUR_MS))
}

/** A reference number: a short code, a hyphen and the sequence are far shorter; ids over this are refused. */
export const REFERENCE_NUMBER = { maxLength: 64 } as const satisfies TextRule

/** The first number of an organization's reference sequence. */
export const FIRST_REFERENCE_NUMBER = 1001

/** PostgreSQL writes the same in SQL as it numbers a need (migration 0017_need_reference_trigger); a contract test holds them together. */
export function formatReferenceNumber(shortCode: string | undefined, n: number): string {
  return `${shortCode ?? 'REQ'}-${n}`
}

/** Reference numbers are compared upper-cased: `req-1001` names `REQ-1001`. */
export function normalizeReferenceNumber(input: string): string {
  return input.trim().toUpperCase()
}

/** Whether a normalized text has the form of a reference number (letters, a hyphen, digits). */
export function looksLikeReferenceNumber(normalized: string): boolean {
  return /^[A-Z]{1,16}-[0-9]{1,15}$/.test(normalized)
}

/** The fields whose changes are kept in a need's history (docs/api/needs.md "Needs"). */
export const TRACKED_FIELDS = ['status', 'assignedTo', 'partnerId', 'isConfidential', 'dueDate'] as const
/** A tracked field's value as text: a status, a UUID, `true` or `false`, an ISO-8601 time. */
export const CHANGE_VALUE = { maxLength: 36 } as const satisfies TextRule
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
  return TRACKED_FIELDS.filter((field) => changeValue(before[field]) !== changeValue(after[field])).map((field) => ({
    field,
    from: changeValue(before[field]),
    to: changeValue(after[field]),
  }))
}

function changeValue(value: string | boolean | Date | undefined): string | undefined {
  if (value === undefined) return undefined
  return value instanceof Date ? value.toISOString() : String(value)
}

/** docs/api/conventions.md "Errors": `customFields` at most 16 KiB (as JSON) and 50 keys of at most 100 characters. */
export const CUSTOM_FIELDS_LIMITS = { maxBytes: 16 * 1024, maxKeys: 50, maxKeyLength: 100 } as const

/** What a person sends through the public intake form, in their words. */
export const PUBLIC_DESCRIPTION = { minLength: 1, ...FREE_TEXT } as const satisfies TextRule

/** `customFields` stays within its limits and its contact keys are valid constituent fields (a phone read in `country`). */
export function customFieldsErrors(customFields: CustomFields, country: string): FieldError[] {
  // Keys and values at any depth, contact fields or not (walked only when not nested too deep: a cycle is).
  const illFormed = nestsDeeperThan(customFields) ? undefined : illFormedTextAt(customFields, '/customFields')
  if (illFormed) return [{ path: illFormed, message: ILL_FORMED_TEXT }]
  const errors: FieldError[] = readContactDetails(customFields, '/customFields', country).errors
  const keys = Object.keys(customFields)
  if (keys.length > CUSTOM_FIELDS_LIMITS.maxKeys) {
    errors.push({ path: '/customFields', message: `must have at most ${CUSTOM_FIELDS_LIMITS.maxKeys} keys` })
  }
  const longKey = keys.find((key) => key.length > CUSTOM_FIELDS_LIMITS.maxKeyLength)
  if (longKey) errors.push({ path: '/customFields', message: `must have keys of at most ${CUSTOM_FIELDS_LIMITS.maxKeyLength} characters` })
  if (nestsDeeperThan(customFields)) {
    // Checked first: measuring the size of a value nested this deep could overflow the stack.
    errors.push({ path: '/customFields', message: `must nest at most ${MAX_NESTING_DEPTH} levels` })
  } else if (customFieldsTooLarge(customFields)) {
    errors.push({ path: '/customFields', message: `must be at most ${CUSTOM_FIELDS_LIMITS.maxBytes} bytes as JSON` })
  }
  return errors
}

/** What staff set on a need, on creation or change; `customFields` is checked as a whole. */
export interface NeedFields {
  status?: NeedStatus
  customFields?: CustomFields
  isConfidential?: boolean
  /** Set by hand; `null` (or nothing, on creation) is the partner's SLA from the creation time. */
  dueDate?: Date | null
}

/** The problems of a need's fields; a public submission (`description` given) also checks what the person wrote. */
export function needFieldErrors(
  input: NeedFields & { description?: string },
  country: string,
  origin: 'staff' | 'public' = 'staff',
): FieldError[] {
  const checks = new FieldChecks()
  if (origin === 'public') checks.text('/description', input.description, PUBLIC_DESCRIPTION)
  checks
    .oneOf('/status', input.status, NEED_STATUSES, 'optional')
    .boolean('/isConfidential', input.isConfidential, 'optional')
    .check('/dueDate', input.dueDate, 'clearable', (v) =>
      v instanceof Date && !Number.isNaN(v.getTime()) ? undefined : 'must be a date and time',
    )
    .check('/customFields', input.customFields, 'optional', (v) =>
      typeof v === 'object' && !Array.isArray(v) ? undefined : 'must be an object',
    )
  const customFields = checks.errors.some((e) => e.path === '/customFields') ? [] : customFieldsErrors(input.customFields ?? {}, country)
  return [...checks.errors, ...customFields]
}

export function customFieldsTooLarge(customFields: CustomFields): boolean {
  return new TextEncoder().encode(JSON.stringify(customFields)).length > CUSTOM_FIELDS_LIMITS.maxBytes
}
