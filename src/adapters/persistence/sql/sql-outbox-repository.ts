import { and, asc, count, desc, eq, gt, inArray, lte, min, or, sql } from 'drizzle-orm'
import type { OutboxRepository } from '../../../application/ports/repositories/outbox-repository'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import type { ClaimedOutboxMessage, OutboxMessage, OutboxPayload, OutboxStatus } from '../../../domain/messaging/outbox'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

function toOutboxMessage(row: typeof schema.outbox.$inferSelect): OutboxMessage {
  const { payload, status, webhookEndpointId: _endpoint, ...rest } = present(row)
  return { ...rest, payload: payload as OutboxPayload, status: status as OutboxStatus }
}

export class SqlOutboxRepository extends SqlRepository implements OutboxRepository {
  async enqueue(m: OutboxMessage) {
    const row = {
      ...m,
      lockedUntil: nullable(m.lockedUntil),
      inFlightSince: nullable(m.inFlightSince),
      lastError: nullable(m.lastError),
      providerMessageId: nullable(m.providerMessageId),
      responseStatus: nullable(m.responseStatus),
      webhookEndpointId: m.payload.channel === 'webhook' ? m.payload.webhook.endpointId : null,
      sentAt: nullable(m.sentAt),
    }
    await this.unread(this.preparedInsert('outbox_insert', this.tables.outbox, row))
  }
  async findById(id: string) {
    const [row] = await this.db.select().from(this.tables.outbox).where(eq(this.tables.outbox.id, id)).limit(1)
    return row ? toOutboxMessage(row) : undefined
  }
  private due(now: Date) {
    return or(
      and(eq(this.tables.outbox.status, 'pending'), lte(this.tables.outbox.nextAttemptAt, now)),
      and(eq(this.tables.outbox.status, 'sending'), lte(this.tables.outbox.lockedUntil, now)),
    )
  }
  async organizationsWithDue(now: Date, limit: number) {
    // In id order, so concurrent dispatchers lock organizations in the same order and never deadlock.
    const rows = await this.db
      .selectDistinct({ id: this.tables.outbox.organizationId })
      .from(this.tables.outbox)
      .where(this.due(now))
      .orderBy(asc(this.tables.outbox.organizationId))
      .limit(limit)
    return rows.map((r) => r.id)
  }
  async countInFlight(organizationId: string, now: Date) {
    const [row] = await this.db
      .select({ n: count() })
      .from(this.tables.outbox)
      .where(
        and(
          eq(this.tables.outbox.organizationId, organizationId),
          eq(this.tables.outbox.status, 'sending'),
          gt(this.tables.outbox.lockedUntil, now),
        ),
      )
    return row?.n ?? 0
  }
  async claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date) {
    if (limit <= 0) return []
    const rows = await this.dialect.skipLocked(
      this.db
        .select()
        .from(this.tables.outbox)
        .where(and(eq(this.tables.outbox.organizationId, organizationId), this.due(now)))
        .orderBy(asc(this.tables.outbox.nextAttemptAt), asc(this.tables.outbox.id))
        .limit(limit),
    )
    const claimed = rows.map((row): ClaimedOutboxMessage => {
      const message = toOutboxMessage(row)
      return { ...message, status: 'sending', lockedUntil, inFlightSince: message.inFlightSince ?? now }
    })
    for (const m of claimed) {
      await this.db
        .update(this.tables.outbox)
        .set({ status: 'sending', lockedUntil, inFlightSince: m.inFlightSince })
        .where(eq(this.tables.outbox.id, m.id))
    }
    return claimed
  }
  /** Applies an outcome only while the claim `fence` still holds the message. */
  private async settle(id: string, fence: Date, fields: Partial<typeof schema.outbox.$inferInsert>, keepInFlightSince = false) {
    const rows = await this.db
      .update(this.tables.outbox)
      .set({ lockedUntil: null, ...(keepInFlightSince ? {} : { inFlightSince: null }), ...fields })
      .where(and(eq(this.tables.outbox.id, id), eq(this.tables.outbox.status, 'sending'), eq(this.tables.outbox.lockedUntil, fence)))
      .returning({ id: this.tables.outbox.id })
    return rows.length === 1
  }
  markSent(id: string, fence: Date, at: Date, providerMessageId: string | undefined, responseStatus?: number) {
    return this.settle(id, fence, {
      status: 'sent',
      sentAt: at,
      providerMessageId: nullable(providerMessageId),
      responseStatus: nullable(responseStatus),
    })
  }
  reschedule(id: string, fence: Date, attempts: number, nextAttemptAt: Date, error: string, inDoubt = false, responseStatus?: number) {
    return this.settle(
      id,
      fence,
      { status: 'pending', attempts, nextAttemptAt, lastError: error, responseStatus: nullable(responseStatus) },
      inDoubt,
    )
  }
  markFailed(id: string, fence: Date, attempts: number, error: string, responseStatus?: number) {
    return this.settle(id, fence, { status: 'failed', attempts, lastError: error, responseStatus: nullable(responseStatus) })
  }
  async forgetMessagesTo(organizationId: string, { phone, email }: { phone?: string; email?: string }) {
    const o = this.tables.outbox
    // Each database reads the recipient out of the JSON payload; the organization's messages are read by its index.
    const to = [
      ...(phone ? [sql`${this.dialect.jsonText(o.payload, ['sms', 'to'])} = ${phone}`] : []),
      ...(email ? [sql`lower(${this.dialect.jsonText(o.payload, ['email', 'to'])}) = ${email.toLowerCase()}`] : []),
    ]
    if (to.length === 0) return []
    const removed = await this.db
      .delete(o)
      .where(and(eq(o.organizationId, organizationId), or(...to)))
      .returning({ payload: o.payload, status: o.status })
    return removed.flatMap(({ payload, status }) => {
      const p = payload as OutboxPayload
      return p.channel === 'sms' && (status === 'pending' || status === 'sending') ? [p.sms.interactionId] : []
    })
  }
  async listWebhookDeliveries(organizationId: string, endpointId: string, page: PageRequest) {
    const where = and(eq(this.tables.outbox.webhookEndpointId, endpointId), eq(this.tables.outbox.organizationId, organizationId))
    const rows = await this.db
      .select()
      .from(this.tables.outbox)
      .where(where)
      .orderBy(desc(this.tables.outbox.createdAt), desc(this.tables.outbox.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.tables.outbox).where(where)
    return { items: rows.map(toOutboxMessage), total: total?.n ?? 0 }
  }
  async backlog() {
    const rows = await this.db
      .select({ status: this.tables.outbox.status, n: count(), oldest: min(this.tables.outbox.createdAt) })
      .from(this.tables.outbox)
      .where(inArray(this.tables.outbox.status, ['pending', 'sending']))
      .groupBy(this.tables.outbox.status)
    const of = (status: string) => rows.find((row) => row.status === status)
    const oldest = rows
      .map((row) => row.oldest)
      .filter((d): d is Date => d !== null)
      .sort((a, b) => a.getTime() - b.getTime())[0]
    return { pending: of('pending')?.n ?? 0, sending: of('sending')?.n ?? 0, ...(oldest ? { oldestQueuedAt: oldest } : {}) }
  }
}
