import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { PartnerRepository } from '../../../application/ports/repositories/partner-repository'
import type { Partner } from '../../../domain/partners/partner'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

function toPartner(row: typeof schema.partners.$inferSelect): Partner {
  return present(row) as Partner
}

function partnerRow(p: Partner) {
  return {
    ...p,
    description: nullable(p.description),
    keywords: nullable(p.keywords),
    website: nullable(p.website),
    publicCategoryName: nullable(p.publicCategoryName),
  }
}

export class SqlPartnerRepository extends SqlRepository implements PartnerRepository {
  async insert(p: Partner) {
    await this.db.insert(this.s.partners).values(partnerRow(p))
  }
  async update(p: Partner) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = partnerRow(p)
    await this.db
      .update(this.s.partners)
      .set(fields)
      .where(and(eq(this.s.partners.id, id), eq(this.s.partners.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const t = this.s.partners
    const [row] = await this.prepared<typeof t.$inferSelect>(
      'partner_by_id',
      () => this.db.select().from(t).where(and(eq(t.id, sql.placeholder('id')), eq(t.organizationId, sql.placeholder('organizationId')))),
      { id, organizationId },
    )
    return row ? toPartner(row) : undefined
  }
  async listAll(organizationId: string) {
    const t = this.s.partners
    const rows = await this.prepared<typeof t.$inferSelect>(
      'partners_of_organization',
      () => this.db.select().from(t).where(eq(t.organizationId, sql.placeholder('organizationId'))).orderBy(asc(t.createdAt), asc(t.id)),
      { organizationId },
    )
    return rows.map(toPartner)
  }
  async clearDefaultExcept(organizationId: string, keepId: string) {
    await this.db
      .update(this.s.partners)
      .set({ isDefault: false })
      .where(and(eq(this.s.partners.organizationId, organizationId), ne(this.s.partners.id, keepId), eq(this.s.partners.isDefault, true)))
  }
}
