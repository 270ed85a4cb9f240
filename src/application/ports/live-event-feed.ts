import type { LiveEvent } from '../../domain/webhooks/live-event'

/**
 * The events of every organization as they commit, in commit order, on every instance of the service
 * (docs/events.md "The live stream"): each database brings them its way.
 */
export interface LiveEventFeed {
  /** Hands `deliver` each batch of events committed from now on, one batch at a time, until `stop`. */
  start(deliver: (events: readonly LiveEvent[]) => Promise<void>): Promise<void>
  stop(): Promise<void>
}
