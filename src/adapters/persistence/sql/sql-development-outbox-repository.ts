import { and, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm'
import type { DevelopmentOutboxRepository } from '../../../application/ports/repositories/development-outbox-repository'
import type { UnsentMessage } from '../../../domain/messaging/development-outbox'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import { SqlRepository } from './sql-repository'

export class SqlDevelopmentOutboxRepository extends SqlRepository implements DevelopmentOutboxRepository {
  private get o() {
    return this.tables.developmentOutbox
  }
  async insert(message: UnsentMessage) {
    await this.db.insert(this.o).values(message)
  }
  async list(organizationId: string, page: PageRequest) {
    const rows = await this.db
      .select()
      .from(this.o)
      .where(eq(this.o.organizationId, organizationId))
      .orderBy(desc(this.o.createdAt), desc(this.o.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.o).where(eq(this.o.organizationId, organizationId))
    return { items: rows.map(({ subject, ...row }) => ({ ...row, ...(subject === null ? {} : { subject }) })), total: total?.n ?? 0 }
  }
  async forgetMessagesTo(organizationId: string, { phone, email }: { phone?: string; email?: string }) {
    const to = [
      ...(phone ? [eq(this.o.recipient, phone)] : []),
      ...(email ? [sql`lower(${this.o.recipient}) = ${email.toLowerCase()}`] : []),
    ]
    if (to.length === 0) return 0
    const removed = await this.db
      .delete(this.o)
      .where(and(eq(this.o.organizationId, organizationId), or(...to)))
      .returning({ id: this.o.id })
    return removed.length
  }
  async purge(before: Date, limit: number) {
    const old = this.db.select({ id: this.o.id }).from(this.o).where(lte(this.o.createdAt, before)).limit(limit)
    const removed = await this.db.delete(this.o).where(inArray(this.o.id, old)).returning({ id: this.o.id })
    return removed.length
  }
}
