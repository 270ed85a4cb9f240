import { and, asc, eq, gt, inArray, lt, max, min, ne, sql } from 'drizzle-orm'
import type { LiveEventRepository } from '../../../application/ports/repositories/live-event-repository'
import type { LiveEvent, LiveEventType } from '../../../domain/webhooks/live-event'
import type { WebhookEventData } from '../../../domain/webhooks/webhook'
import type * as schema from '../sqlite/schema'
import { SqlRepository } from './sql-repository'

type Row = typeof schema.liveEvents.$inferSelect

function toEvent(row: Row): LiveEvent {
  return { ...row, type: row.type as LiveEventType }
}

export class SqlLiveEventRepository extends SqlRepository implements LiveEventRepository {
  async append(organizationId: string, type: LiveEventType, data: readonly WebhookEventData[], at: Date) {
    // Prepared, as an import's batch writes one a record: `id` is the database's, in the order written.
    for (const item of data) {
      await this.unread(
        this.preparedInsert('live_event_insert', this.tables.liveEvents, { organizationId, type, data: item, createdAt: at }, ['id']),
      )
    }
  }
  async after(afterId: number, limit: number) {
    const t = this.tables.liveEvents
    const rows = await this.prepared<Row>(
      'live_events_after',
      () =>
        this.db
          .select()
          .from(t)
          .where(gt(t.id, sql.placeholder('afterId')))
          .orderBy(asc(t.id))
          .limit(sql.placeholder('limit')),
      { afterId, limit },
    )
    return rows.map(toEvent)
  }
  async byIds(ids: readonly number[]) {
    if (ids.length === 0) return []
    const t = this.tables.liveEvents
    const rows = await this.db
      .select()
      .from(t)
      .where(inArray(t.id, [...ids]))
    const byId = new Map(rows.map((row) => [row.id, toEvent(row)]))
    return ids.flatMap((id) => byId.get(id) ?? [])
  }
  async replay(organizationId: string, afterId: number, limit: number) {
    const t = this.tables.liveEvents
    const rows = await this.db
      .select()
      .from(t)
      .where(and(eq(t.organizationId, organizationId), gt(t.id, afterId)))
      .orderBy(asc(t.id))
      .limit(limit)
    return rows.map(toEvent)
  }
  async bounds() {
    const t = this.tables.liveEvents
    const [row] = await this.db.select({ lowest: min(t.id), highest: max(t.id) }).from(t)
    return row?.lowest != null && row.highest != null ? { lowest: Number(row.lowest), highest: Number(row.highest) } : undefined
  }
  async purge(before: Date, limit: number) {
    const t = this.tables.liveEvents
    const newest = this.db.select({ id: max(t.id) }).from(t)
    const expired = this.db
      .select({ id: t.id })
      .from(t)
      .where(and(lt(t.createdAt, before), ne(t.id, newest)))
      .limit(limit)
    const removed = await this.db.delete(t).where(inArray(t.id, expired)).returning({ id: t.id })
    return removed.length
  }
}
