import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import type { WebhookEndpointRepository } from '../../../application/ports/repositories/webhook-endpoint-repository'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import type { WebhookEndpoint, WebhookEventType } from '../../../domain/webhooks/webhook'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

function toEndpoint(row: typeof schema.webhookEndpoints.$inferSelect): WebhookEndpoint {
  const { events, ...rest } = present(row)
  return { ...rest, events: events as WebhookEventType[] }
}

export class SqlWebhookEndpointRepository extends SqlRepository implements WebhookEndpointRepository {
  private get e() {
    return this.tables.webhookEndpoints
  }
  private inOrganization(organizationId: string, id: string) {
    return and(eq(this.e.organizationId, organizationId), eq(this.e.id, id))
  }
  async insert(endpoint: WebhookEndpoint) {
    await this.db.insert(this.e).values({ ...endpoint, disabledAt: nullable(endpoint.disabledAt) })
  }
  async update(endpoint: WebhookEndpoint) {
    // The secret is set once, at creation.
    await this.updateInOrganization(this.e, { ...endpoint, disabledAt: nullable(endpoint.disabledAt) }, ['createdAt', 'sealedSecret'])
  }
  async delete(organizationId: string, id: string) {
    const rows = await this.db.delete(this.e).where(this.inOrganization(organizationId, id)).returning({ id: this.e.id })
    return rows.length === 1
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.e, organizationId, id)
    return row ? toEndpoint(row) : undefined
  }
  async list(organizationId: string, page: PageRequest) {
    const where = eq(this.e.organizationId, organizationId)
    const rows = await this.db
      .select()
      .from(this.e)
      .where(where)
      .orderBy(desc(this.e.createdAt), desc(this.e.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    return { items: rows.map(toEndpoint), total: await this.count(organizationId) }
  }
  async count(organizationId: string) {
    const [row] = await this.db.select({ n: count() }).from(this.e).where(eq(this.e.organizationId, organizationId))
    return row?.n ?? 0
  }
  async subscribedTo(organizationId: string, type: WebhookEventType) {
    // An organization has a handful of endpoints at most (MAX_WEBHOOK_ENDPOINTS): the events are matched here.
    // Every write that may cause an event asks: prepared, as building the query costs more than running it.
    const rows = await this.prepared<typeof schema.webhookEndpoints.$inferSelect>(
      'webhook_endpoints_enabled',
      () =>
        this.db
          .select()
          .from(this.e)
          .where(and(eq(this.e.organizationId, sql.placeholder('organizationId')), eq(this.e.enabled, true)))
          .orderBy(asc(this.e.createdAt), asc(this.e.id)),
      { organizationId },
    )
    return rows.map(toEndpoint).filter((e) => e.events.includes(type))
  }
}
