import type { EmailMessage } from './email'

/**
 * A message waiting to leave, written in the same transaction as what caused it, so nothing is lost on a
 * crash and nothing is sent for a change that rolled back.
 */
export type OutboxPayload = { channel: 'email'; email: EmailMessage }

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed'

export interface OutboxMessage {
  id: string
  organizationId: string
  payload: OutboxPayload
  status: OutboxStatus
  attempts: number
  /** When it may be tried (again). */
  nextAttemptAt: Date
  /** While `sending`: the claim holds until then; a worker that died lets it lapse. */
  lockedUntil?: Date
  lastError?: string
  providerMessageId?: string
  createdAt: Date
  sentAt?: Date
}

/** At most this many tries; then the message is failed for good (contract §8). */
export const MAX_ATTEMPTS = 5

/** Exponential backoff: 2 s, 4 s, 8 s, 16 s after the 1st to 4th failure. */
export function retryDelayMs(attemptsSoFar: number): number {
  return 1000 * 2 ** attemptsSoFar
}
