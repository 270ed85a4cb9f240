import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { ServiceFilter, ServiceRepository } from '../../../application/ports/repositories/service-repository'
import type { Service } from '../../../domain/services/service'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { nullable, present, SqlRepository } from './sql-repository'

function toService(row: typeof schema.services.$inferSelect): Service {
  return present(row) as Service
}

function serviceRow(s: Service) {
  return {
    ...s,
    description: nullable(s.description),
    eligibility: nullable(s.eligibility),
    fees: nullable(s.fees),
    applicationProcess: nullable(s.applicationProcess),
    url: nullable(s.url),
    email: nullable(s.email),
    phone: nullable(s.phone),
    address: nullable(s.address),
  }
}

export class SqlServiceRepository extends SqlRepository implements ServiceRepository {
  private get s() {
    return this.tables.services
  }
  async insert(service: Service) {
    await this.db.insert(this.s).values(serviceRow(service))
  }
  async update(service: Service) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = serviceRow(service)
    await this.db
      .update(this.s)
      .set(fields)
      .where(and(eq(this.s.organizationId, organizationId), eq(this.s.id, id)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.s)
      .where(and(eq(this.s.organizationId, organizationId), eq(this.s.id, id)))
    return row ? toService(row) : undefined
  }
  async list(organizationId: string, filter: ServiceFilter, page: PageRequest) {
    const where = and(...this.conditions(organizationId, filter))
    const rows = await this.db
      .select()
      .from(this.s)
      .where(where)
      .orderBy(desc(this.s.createdAt), desc(this.s.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [counted] = await this.db.select({ n: count() }).from(this.s).where(where)
    return { items: rows.map(toService), total: counted?.n ?? 0 }
  }
  private conditions(organizationId: string, { partnerId, status, includeArchived }: ServiceFilter): SQL[] {
    const conditions = [eq(this.s.organizationId, organizationId)]
    if (partnerId !== undefined) conditions.push(eq(this.s.partnerId, partnerId))
    if (status !== undefined) conditions.push(eq(this.s.status, status))
    if (!includeArchived) conditions.push(eq(this.s.isArchived, false))
    return conditions
  }
}
