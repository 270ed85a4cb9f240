import type { EmailMessage } from './email'

/**
 * A message waiting to leave, written in the same transaction as what caused it, so nothing is lost on a
 * crash and nothing is sent for a change that rolled back.
 */
export type OutboxPayload =
  | { channel: 'email'; email: EmailMessage }
  | { channel: 'sms'; sms: SmsMessage }
  | { channel: 'webhook'; webhook: WebhookMessage }
  | { channel: 'federation'; federation: FederationMessage }

/**
 * One event for one endpoint (docs/events.md). The message's id is the `webhook-id`, the same on every try;
 * the body is kept as the text that is signed.
 */
export interface WebhookMessage {
  endpointId: string
  type: string
  body: string
}

/**
 * One message to a referral partner's instance (docs/referrals.md "The channel"). The outbox message's id is its
 * `webhook-id`, the same on every try; the body is the envelope as signed, naming the partner's own pairing id.
 */
export interface FederationMessage {
  /** The sender's pairing (its record of the partner). */
  partnerId: string
  type: string
  /** The referral it is about, when it is about one. */
  referralId?: string
  body: string
}

/** A text to send, and the interaction that records it (docs/api/organization.md "SMS"). */
export interface SmsMessage {
  from: string
  to: string
  body: string
  interactionId: string
}

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed'

export interface OutboxMessage {
  id: string
  organizationId: string
  payload: OutboxPayload
  status: OutboxStatus
  attempts: number
  /** When it may be tried (again). */
  nextAttemptAt: Date
  /** While `sending`: the claim holds until then; a worker that died lets it lapse. Also the claim's fence. */
  lockedUntil?: Date
  /**
   * When the current attempt began. A message claimed again with this set was in flight when its worker
   * died: it may or may not have left, and must be checked with the provider before it is sent again.
   */
  inFlightSince?: Date
  lastError?: string
  providerMessageId?: string
  /** A webhook's: the HTTP status its endpoint answered to the latest try. */
  responseStatus?: number
  createdAt: Date
  sentAt?: Date
}

/**
 * A message a worker holds, as a claim answers it: `sending`, with the end of its claim (`lockedUntil`,
 * which also fences the outcome) and the start of its unfinished attempts (`inFlightSince`, this claim's
 * own time unless an earlier attempt was interrupted).
 */
export type ClaimedOutboxMessage = Omit<OutboxMessage, 'status' | 'lockedUntil' | 'inFlightSince'> & {
  status: 'sending'
  lockedUntil: Date
  inFlightSince: Date
}

/** At most this many tries; then the message is failed for good (docs/api/organization.md "SMS"). */
export const MAX_ATTEMPTS = 5

/** Exponential backoff: 2 s, 4 s, 8 s, 16 s after the 1st to 4th failure. */
export function retryDelayMs(attemptsSoFar: number): number {
  return 1000 * 2 ** attemptsSoFar
}
