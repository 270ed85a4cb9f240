import type { WebhookEventData } from '../../../domain/webhooks/webhook'
import type { LiveEvent, LiveEventType } from '../../../domain/webhooks/live-event'

/**
 * Every event of every organization, recorded in the transaction that causes it and numbered by the store
 * in increasing order (docs/events.md "The live stream"). Kept a few minutes, for streams that reconnect.
 */
export interface LiveEventRepository {
  /** One event per item of `data`, in the caller's transaction. */
  append(organizationId: string, type: LiveEventType, data: readonly WebhookEventData[], at: Date): Promise<void>
  /** Committed events of every organization numbered above `afterId`, oldest first, at most `limit`. */
  after(afterId: number, limit: number): Promise<LiveEvent[]>
  /** The events with these ids, in the order of the ids given (those purged or never committed left out). */
  byIds(ids: readonly number[]): Promise<LiveEvent[]>
  /** The organization's events numbered above `afterId`, oldest first, at most `limit`. */
  replay(organizationId: string, afterId: number, limit: number): Promise<LiveEvent[]>
  /** The lowest and highest ids kept; absent when none is. */
  bounds(): Promise<{ lowest: number; highest: number } | undefined>
  /** Removes up to `limit` events recorded before `before`, never the newest one (its id is where numbering stands). */
  purge(before: Date, limit: number): Promise<number>
}
