import { AUDIT_RETENTION_DAYS } from '../audit/audit-event'
import { ForbiddenError, type FieldError } from '../errors'
import { FieldChecks, FREE_TEXT, NAME, type IntegerRule, type TextRule } from '../shared/fields'
import { ORIGIN_LIST, originProblem } from '../shared/origin'
import { countryCodeProblem } from '../shared/phone'
import { DIGEST_HOUR, timeZoneProblem } from './digest-schedule'
import type { QuickReply } from './quick-replies'

// docs/api/organization.md "Organization settings"
export interface Organization {
  id: string
  name: string
  slug: string
  shortCode?: string
  maxConcurrency: number
  tcrStatus?: string
  phoneNumber?: string
  /** Days audit events are kept (docs/audit.md); absent: DEFAULT_AUDIT_RETENTION_DAYS. */
  auditRetentionDays?: number
  /** Days a person with no need activity is kept before retention erases them (docs/privacy.md); absent: kept. */
  constituentRetentionDays?: number
  /** Days a resolved need keeps its free text before retention clears it (docs/privacy.md); absent: kept. */
  needTextRetentionDays?: number
  /** Origins of the organization's own apps an admin may point invitation links at (absent: none). */
  appOrigins?: string[]
  /** Origins of partner sites whose pages may post the public intake (absent: none). */
  formOrigins?: string[]
  /** The daily digest's local hour, in `timeZone` (absent: DEFAULT_DIGEST_HOUR). */
  digestHour?: number
  /** The organization's days: the digest's today and the reports' days (absent: DEFAULT_TIME_ZONE, UTC). */
  timeZone?: string
  /** Whether the person who asked through the public intake is sent a confirmation (absent: no). */
  confirmRequests?: boolean
  /** The country whose national phone numbers its people type (ISO 3166-1 alpha-2; US for those made before it). */
  defaultCountry: string
  /** The saved replies staff pick from when they text (docs/api/organization.md "Quick replies"; absent: none). */
  quickReplies?: QuickReply[]
  /** What the organization does, in its own words: the HSDS directory's organization description (absent: none). */
  description?: string
  /** Whether its directory of services is published as HSDS 3.0 under /hsds/{slug} (docs/directory.md; absent: no). */
  publishDirectory?: boolean
  createdAt: Date
}

export const DEFAULT_MAX_CONCURRENCY = 5
/**
 * SMS messages of one organization in flight at once. At least one: with none, the outbox would never
 * find a free slot for the organization and its texts would wait for good.
 */
export const MAX_CONCURRENCY = { minimum: 1, maximum: 1000 } as const satisfies IntegerRule
export const SLUG = { pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 63 } as const satisfies TextRule
export const SHORT_CODE = { pattern: '^[A-Z]{4,6}$', maxLength: 6 } as const satisfies TextRule
export const SLUG_MEANING = 'lowercase letters, digits and single hyphens'
export const SHORT_CODE_MEANING = '4 to 6 uppercase letters'
export const TCR_STATUS = { maxLength: 64 } as const satisfies TextRule
/**
 * Days of the retention settings (docs/privacy.md): a month at least, so a slip of the finger cannot erase
 * people seen last week; a hundred years at most.
 */
export const RETENTION_DAYS = { minimum: 30, maximum: 36500 } as const satisfies IntegerRule

/** The settings an org_admin (or the operator, on creation) chooses; `null` clears an optional one. */
export interface OrganizationFields {
  name: string
  slug: string
  shortCode?: string | null
  maxConcurrency?: number
  tcrStatus?: string | null
  auditRetentionDays?: number
  constituentRetentionDays?: number | null
  needTextRetentionDays?: number | null
  appOrigins?: string[]
  formOrigins?: string[]
  digestHour?: number
  timeZone?: string
  confirmRequests?: boolean
  defaultCountry?: string
  description?: string | null
  publishDirectory?: boolean
}

/**
 * The problems of an organization's settings, on creation (`whole`: name and slug required) and on every
 * update alike (a partial update: what is left out stays as it is).
 */
export function organizationFieldErrors(input: Partial<OrganizationFields>, whole = true): FieldError[] {
  const presence = whole ? 'required' : 'optional'
  return new FieldChecks()
    .text('/name', input.name, NAME, { trim: true, presence })
    .text('/slug', input.slug, SLUG, { meaning: SLUG_MEANING, presence })
    .text('/shortCode', input.shortCode, SHORT_CODE, { presence: 'clearable', meaning: SHORT_CODE_MEANING })
    .integer('/maxConcurrency', input.maxConcurrency, MAX_CONCURRENCY, 'optional')
    .text('/tcrStatus', input.tcrStatus, TCR_STATUS, { presence: 'clearable' })
    .text('/description', input.description, FREE_TEXT, { presence: 'clearable' })
    .integer('/auditRetentionDays', input.auditRetentionDays, AUDIT_RETENTION_DAYS, 'optional')
    .integer('/constituentRetentionDays', input.constituentRetentionDays, RETENTION_DAYS, 'clearable')
    .integer('/needTextRetentionDays', input.needTextRetentionDays, RETENTION_DAYS, 'clearable')
    .list('/appOrigins', input.appOrigins, ORIGIN_LIST, originProblem, 'optional')
    .list('/formOrigins', input.formOrigins, ORIGIN_LIST, originProblem, 'optional')
    .integer('/digestHour', input.digestHour, DIGEST_HOUR, 'optional')
    .check('/timeZone', input.timeZone, 'optional', timeZoneProblem)
    .boolean('/confirmRequests', input.confirmRequests, 'optional')
    .boolean('/publishDirectory', input.publishDirectory, 'optional')
    .check('/defaultCountry', input.defaultCountry, 'optional', countryCodeProblem).errors
}

/**
 * A public intake that a page on another site (`origin`) made a browser send is taken only when the
 * organization lists that origin in `formOrigins` (docs/api/access.md "Requests from other sites"). `undefined`: the
 * request came from the service's own pages or from no browser.
 */
export function assertAcceptsIntakeFrom(organization: Organization, origin: string | undefined): void {
  if (origin === undefined || organization.formOrigins?.includes(origin)) return
  throw new ForbiddenError(
    "A page on another site may send this organization's public intake only when the organization lists the site's origin in its formOrigins setting",
  )
}
