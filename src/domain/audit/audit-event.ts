import type { IntegerRule } from '../shared/fields'

// docs/audit.md
/** The kinds of record an audit event names. */
export const AUDIT_RECORD_TYPES = [
  'organization',
  'member',
  'partner',
  'service',
  'need',
  'constituent',
  'household_match',
  'email_settings',
  'interaction',
  'webhook_endpoint',
  'referral_partner',
  'referral',
] as const
export type AuditRecordType = (typeof AUDIT_RECORD_TYPES)[number]

/** What happened; `read` is a read of a constituent's personal details. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'read',
  'merge',
  'erase',
  'resolve',
  'add_note',
  'send_sms',
  'receive_sms',
  'sms_status',
  'invite',
  'accept_invite',
  'set_password',
  'request_password_reset',
  'reset_password',
  'change_password',
  'request_email_change',
  'change_email',
  'login',
  'logout',
  'deactivate',
  'reactivate',
  'import',
  'apply_retention',
  'revoke_session',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/**
 * One thing done to the organization's data, or one read of a constituent's personal details. Never holds
 * a value: `fields` names what changed (or what was seen), so the trail itself leaks nothing it records.
 */
export interface AuditEvent {
  id: string
  organizationId: string
  /** Absent when nobody logged in did it (a public intake, an inbound text, a provider's report, an operator's command). */
  memberId?: string
  action: AuditAction
  recordType: AuditRecordType
  recordId: string
  at: Date
  /** The HTTP request it happened in (its X-Request-Id); absent outside a request. */
  requestId?: string
  fields?: string[]
  /** How many records it touched, by kind (a retention run's): numbers, never values. */
  counts?: AuditCounts
}

/**
 * What an event may count: what a retention run erased and cleared (docs/privacy.md); an import's rows, and
 * of them those created, skipped and refused (docs/api/exports-import.md "Import").
 */
export const AUDIT_COUNTS = ['constituentsErased', 'needTextsCleared', 'rows', 'created', 'skipped', 'refused'] as const
export type AuditCounts = Partial<Record<(typeof AUDIT_COUNTS)[number], number>>

/** How long an organization keeps its audit events, in days: a week at least, ten years at most. */
export const AUDIT_RETENTION_DAYS = { minimum: 7, maximum: 3650 } as const satisfies IntegerRule
/** Seven years, what records of case work are commonly kept for. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 2555

/** Events at or after `since` and before `until`; the others narrow to one member, record or action. */
export interface AuditFilter {
  memberId?: string
  recordType?: AuditRecordType
  recordId?: string
  action?: AuditAction
  since?: Date
  until?: Date
}

/** The oldest moment an organization keeping events `days` days still keeps at `now`. */
export function retentionStart(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000)
}

/** The names of the fields that differ between two versions of a record (never their values). */
export function changedFields(before: object, after: object, ignore: readonly string[] = ['updatedAt']): string[] {
  const a = before as Record<string, unknown>
  const b = after as Record<string, unknown>
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((name) => !ignore.includes(name))
  return names.filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name])).sort()
}
