import { textProblem } from '../shared/fields'
import { REFERRAL_NOTE, REFERRAL_OUTCOMES, REFERRAL_STATUSES, type ReferralOutcome, type ReferralStatus } from './referral'

// docs/referrals.md "Message types": what referrals send over the signed channel, and how a payload is read.

/** The sender's referral: the service, the person's shared details (none once consent has lapsed), the note. */
export const REFERRAL_REQUESTED = 'referral.requested'
/** A move of either side: the status, when, and the outcome or reason that came with it. */
export const REFERRAL_STATUS = 'referral.status'
/** The sender's person revoked consent: the receiver erases what it took. */
export const REFERRAL_CONSENT_REVOKED = 'referral.consent_revoked'
/** A request: the receiver's services that take referrals. */
export const REFERRAL_SERVICES = 'referral.services'

export interface RequestedPayload {
  serviceId: string
  person: Record<string, unknown>
  note?: string
  sentAt: string
}

export interface StatusPayload {
  status: ReferralStatus
  at: string
  outcome?: ReferralOutcome
  note?: string
}

/** A service as a partner sees it when referring. */
export interface OfferedService {
  id: string
  name: string
  description?: string
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200
const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v))

/**
 * The payload of `referral.requested`, or undefined when it is none. Its person is read by the receiver as any contact
 * details are (`readContactDetails`), under the receiver's rules; keys other than contact fields are dropped there.
 */
export function requestedPayloadOf(payload: unknown): RequestedPayload | undefined {
  const { serviceId, person, note, sentAt } = (payload ?? {}) as Record<string, unknown>
  if (!isText(serviceId) || !isTime(sentAt) || typeof person !== 'object' || person === null || Array.isArray(person)) return undefined
  if (note !== undefined && textProblem(note, REFERRAL_NOTE)) return undefined
  return { serviceId, person: person as Record<string, unknown>, ...(typeof note === 'string' ? { note } : {}), sentAt }
}

/** The payload of `referral.status`, or undefined when it is none. */
export function statusPayloadOf(payload: unknown): StatusPayload | undefined {
  const { status, at, outcome, note } = (payload ?? {}) as Record<string, unknown>
  if (!REFERRAL_STATUSES.includes(status as ReferralStatus) || !isTime(at)) return undefined
  if (outcome !== undefined && !REFERRAL_OUTCOMES.includes(outcome as ReferralOutcome)) return undefined
  if (note !== undefined && textProblem(note, REFERRAL_NOTE)) return undefined
  return {
    status: status as ReferralStatus,
    at,
    ...(outcome ? { outcome: outcome as ReferralOutcome } : {}),
    ...(typeof note === 'string' ? { note } : {}),
  }
}
