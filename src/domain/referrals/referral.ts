import { CONTACT_FIELDS, type ContactDetails, type ContactField } from '../constituents/contact'
import type { FieldError } from '../errors'
import { FieldChecks, FREE_TEXT, type ListRule } from '../shared/fields'

// docs/referrals.md "Referrals": a need sent to a paired organization, the same id on both sides.

/** FHIR Task's statuses, as FHIR writes them, in the order a referral moves through them. */
export const REFERRAL_STATUSES = ['requested', 'received', 'accepted', 'rejected', 'in-progress', 'completed', 'cancelled'] as const
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number]

export const REFERRAL_OUTCOMES = ['got_help', 'could_not_contact', 'no_capacity', 'other'] as const
export type ReferralOutcome = (typeof REFERRAL_OUTCOMES)[number]

export const CONSENT_METHODS = ['verbal', 'written', 'electronic'] as const
export type ConsentMethod = (typeof CONSENT_METHODS)[number]

export const REFERRAL_DIRECTIONS = ['in', 'out'] as const
export type ReferralDirection = (typeof REFERRAL_DIRECTIONS)[number]

export const CONSENT_FIELDS = { maxItems: CONTACT_FIELDS.length, uniqueItems: true } as const satisfies ListRule

/** The person's consent to share, kept by the sender: which contact fields may travel, until when. */
export interface Consent {
  obtainedAt: Date
  method: ConsentMethod
  expiresAt: Date
  fields: ContactField[]
}

/** One move of a referral: by which organization (its name) and, on the side that made it, which member. */
export interface ReferralMove {
  status: ReferralStatus
  at: Date
  by: { organization: string; member?: string }
  /** A decline's reason, a completion's note. */
  note?: string
}

/** One side's record of a referral: `out` at the sender, `in` at the receiver. */
export interface Referral {
  id: string
  organizationId: string
  direction: ReferralDirection
  /** This side's pairing with the other organization. */
  referralPartnerId: string
  /** The receiver's service. */
  serviceId: string
  /** The sender's need, or the need the receiver made of it. */
  needId: string
  /** This side's partner of that need: a partner's members see its referrals only. */
  partnerId: string
  status: ReferralStatus
  outcome?: ReferralOutcome
  /** The sender's only. */
  consent?: Consent
  consentRevokedAt?: Date
  /** The receiver's only: the values it took from the referral, erased when consent is revoked. */
  takenValues?: ContactDetails
  /** Set when a message about it ran out of tries; cleared when it is sent again. */
  notDelivered?: boolean
  history: ReferralMove[]
  createdAt: Date
  updatedAt: Date
}

/** The moves a member makes, each from the statuses it may follow; the sender's are `cancelled` only. */
const MOVES_FROM: Record<ReferralStatus, readonly ReferralStatus[]> = {
  requested: [],
  received: ['requested'],
  accepted: ['received'],
  rejected: ['received', 'accepted'],
  'in-progress': ['accepted'],
  completed: ['accepted', 'in-progress'],
  cancelled: ['requested', 'received', 'accepted', 'in-progress'],
}

const FINAL: readonly ReferralStatus[] = ['rejected', 'completed', 'cancelled']

/** Whether a member may move a referral in `from` to `to`. */
export function mayMove(from: ReferralStatus, to: ReferralStatus): boolean {
  return MOVES_FROM[to].includes(from)
}

/**
 * Whether a status heard from the other side moves the referral forward: messages may arrive late or out of order,
 * so a status is taken only when it comes after the present one, and nothing follows a final one.
 */
export function advances(from: ReferralStatus, to: ReferralStatus): boolean {
  if (FINAL.includes(from)) return false
  return FINAL.includes(to) || REFERRAL_STATUSES.indexOf(to) > REFERRAL_STATUSES.indexOf(from)
}

/** Which statuses a side hears from the other: the receiver's moves at the sender, a cancellation at the receiver. */
export function heardBy(direction: ReferralDirection, status: ReferralStatus): boolean {
  return direction === 'in' ? status === 'cancelled' : status !== 'requested' && status !== 'cancelled'
}

/** Whether personal details may travel now: consent given, not revoked, not expired. */
export function consentHolds(referral: Pick<Referral, 'consent' | 'consentRevokedAt'>, now: Date): boolean {
  return Boolean(referral.consent && !referral.consentRevokedAt && referral.consent.expiresAt > now)
}

/** The consented fields of a person's details that hold a value: what travels. */
export function sharedDetails(details: ContactDetails, fields: readonly ContactField[]): ContactDetails {
  const shared: Record<string, string> = {}
  for (const field of fields) {
    const value = details[field]
    if (value !== undefined && value !== '') shared[field] = value
  }
  return shared as ContactDetails
}

export interface ConsentInput {
  obtainedAt?: unknown
  method?: unknown
  expiresAt?: unknown
  fields?: unknown
}

/** The problems of a referral's consent at `now`: required, obtained already, not expired, naming contact fields only. */
export function consentErrors(consent: ConsentInput | undefined, now: Date): FieldError[] {
  const checks = new FieldChecks().check('/consent', consent, 'required', (v) => (typeof v === 'object' ? undefined : 'must be an object'))
  if (typeof consent !== 'object' || consent === null) return checks.errors
  const isDate = (v: unknown) => (v instanceof Date && !Number.isNaN(v.getTime()) ? undefined : 'must be a date and time')
  return checks
    .check(
      '/consent/obtainedAt',
      consent.obtainedAt,
      'required',
      (v) => isDate(v) ?? ((v as Date) > now ? 'must not be in the future' : undefined),
    )
    .oneOf('/consent/method', consent.method, CONSENT_METHODS)
    .check('/consent/expiresAt', consent.expiresAt, 'required', (v) => isDate(v) ?? ((v as Date) <= now ? 'has expired' : undefined))
    .list('/consent/fields', consent.fields, CONSENT_FIELDS, (f) =>
      CONTACT_FIELDS.includes(f as ContactField) ? undefined : `is not a contact field (${CONTACT_FIELDS.join(', ')})`,
    ).errors
}

export const REFERRAL_NOTE = FREE_TEXT
