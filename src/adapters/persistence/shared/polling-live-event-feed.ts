import type { LiveEventFeed } from '../../../application/ports/live-event-feed'
import type { LiveEventRepository } from '../../../application/ports/repositories/live-event-repository'
import type { LiveEvent } from '../../../domain/webhooks/live-event'

const BATCH = 500

/**
 * The feed of a database written by one process (SQLite, memory): what committed is read by id every
 * `intervalMs`. One writer numbers events in commit order, so reading above the last id read misses none.
 */
export class PollingLiveEventFeed implements LiveEventFeed {
  private timer: ReturnType<typeof setTimeout> | undefined
  private stopped = false

  constructor(
    private readonly events: LiveEventRepository,
    private readonly intervalMs = 100,
  ) {}

  async start(deliver: (events: readonly LiveEvent[]) => Promise<void>): Promise<void> {
    let cursor = (await this.events.bounds())?.highest ?? 0
    const poll = async () => {
      try {
        for (let batch = await this.events.after(cursor, BATCH); batch.length > 0; batch = await this.events.after(cursor, BATCH)) {
          cursor = batch.at(-1)!.id
          await deliver(batch)
        }
      } catch {
        // The database is away for now: the next poll reads from the same place.
      }
      if (!this.stopped) this.timer = setTimeout(poll, this.intervalMs)
    }
    this.timer = setTimeout(poll, this.intervalMs)
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
  }
}
