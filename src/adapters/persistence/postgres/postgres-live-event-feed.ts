import type postgres from 'postgres'
import type { LiveEventFeed } from '../../../application/ports/live-event-feed'
import type { LiveEventRepository } from '../../../application/ports/repositories/live-event-repository'
import type { LiveEvent } from '../../../domain/webhooks/live-event'

/** The channel the `live_events` trigger NOTIFYs each new id on (migration 0024_live_events). */
const CHANNEL = 'intake_live_events'

/**
 * Every instance's events on PostgreSQL: a LISTEN on a session of its own (postgres-js keeps one connection
 * for it, outside the pool; behind a pooler it must be a session connection, docs/deploy.md). A NOTIFY
 * arrives when its transaction commits, in commit order, so the ids are read as they come. After the
 * session is lost and comes back, what was written meanwhile is read above the last id delivered.
 */
export class PostgresLiveEventFeed implements LiveEventFeed {
  private listening: postgres.ListenMeta | undefined

  constructor(
    private readonly client: postgres.Sql,
    private readonly events: LiveEventRepository,
  ) {}

  async start(deliver: (events: readonly LiveEvent[]) => Promise<void>): Promise<void> {
    let cursor = (await this.events.bounds())?.highest ?? 0
    let waiting: number[] = []
    let delivering = Promise.resolve()
    const send = (read: () => Promise<LiveEvent[]>) => {
      delivering = delivering.then(async () => {
        const events = await read().catch(() => [])
        if (events.length === 0) return
        cursor = Math.max(cursor, ...events.map((e) => e.id))
        await deliver(events)
      })
    }
    let listenedBefore = false
    this.listening = await this.client.listen(
      CHANNEL,
      (payload) => {
        waiting.push(Number(payload))
        // The ids of one commit arrive together: read them in one query.
        if (waiting.length === 1)
          queueMicrotask(() => {
            const ids = waiting
            waiting = []
            send(() => this.events.byIds(ids))
          })
      },
      () => {
        if (listenedBefore) send(() => this.events.after(cursor, 1_000))
        listenedBefore = true
      },
    )
  }

  async stop(): Promise<void> {
    await this.listening?.unlisten().catch(() => undefined)
  }
}
