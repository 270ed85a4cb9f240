import type { ClaimedOutboxMessage, OutboxMessage } from '../../../domain/messaging/outbox'
import type { Page, PageRequest } from '../../../domain/shared/page'

/**
 * The outbox is read across organizations by the dispatcher; each message still names its organization.
 * A claim makes messages `sending` until its `lockedUntil`, which also fences the outcome: an outcome
 * applies only while that claim still holds the message, so a worker that outlived its lease cannot
 * overwrite what the next one did.
 */
export interface OutboxRepository {
  enqueue(message: OutboxMessage): Promise<void>
  findById(id: string): Promise<OutboxMessage | undefined>
  /** Organizations with messages due by `now`: pending ones whose time has come, or claims that lapsed. */
  organizationsWithDue(now: Date, limit: number): Promise<string[]>
  /** Messages of the organization under a live claim: in flight, counted against its concurrency cap. */
  countInFlight(organizationId: string, now: Date): Promise<number>
  /**
   * Claims up to `limit` due messages of the organization, oldest first; they become `sending` until
   * `lockedUntil`. A pending one starts its attempt now (`inFlightSince`); a lapsed one keeps the time its
   * interrupted attempt began.
   */
  claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date): Promise<ClaimedOutboxMessage[]>
  /** Each answers false, changing nothing, when the claim `fence` no longer holds the message. */
  markSent(id: string, fence: Date, at: Date, providerMessageId: string | undefined, responseStatus?: number): Promise<boolean>
  /**
   * Back to pending after a retryable failure. With `inDoubt` the attempt's `inFlightSince` is kept: nobody
   * knows whether it reached the provider, so the next try asks first.
   */
  reschedule(
    id: string,
    fence: Date,
    attempts: number,
    nextAttemptAt: Date,
    error: string,
    inDoubt?: boolean,
    responseStatus?: number,
  ): Promise<boolean>
  markFailed(id: string, fence: Date, attempts: number, error: string, responseStatus?: number): Promise<boolean>
  /**
   * Removes the organization's texts to `phone` and mails to `email` (any case), sent or not: an erasure
   * (docs/privacy.md). Answers the interactions of the texts that had not left yet (pending, or claimed and
   * not settled), which will never be sent.
   */
  forgetMessagesTo(organizationId: string, to: { phone?: string; email?: string }): Promise<string[]>
  /** The messages (deliveries) of one webhook endpoint of the organization, newest first, `id` as tie-break. */
  listWebhookDeliveries(organizationId: string, endpointId: string, page: PageRequest): Promise<Page<OutboxMessage>>
  /** What waits, across organizations (monitoring): messages pending or being sent, and the oldest one's age. */
  backlog(): Promise<OutboxBacklog>
}

export interface OutboxBacklog {
  pending: number
  sending: number
  /** When the oldest message not yet sent or failed was queued; absent when none waits. */
  oldestQueuedAt?: Date
}
