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
    await this.db.insert(this.tables.partners).values(partnerRow(p))
  }
  async update(p: Partner) {
    await this.updateInOrganization(this.tables.partners, partnerRow(p))
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.tables.partners, organizationId, id)
    return row ? toPartner(row) : undefined
  }
  async listAll(organizationId: string) {
    const t = this.tables.partners
    const rows = await this.prepared<typeof t.$inferSelect>(
      'partners_of_organization',
      () =>
        this.db
          .select()
          .from(t)
          .where(eq(t.organizationId, sql.placeholder('organizationId')))
          .orderBy(asc(t.createdAt), asc(t.id)),
      { organizationId },
    )
    return rows.map(toPartner)
  }
  async clearDefaultExcept(organizationId: string, keepId: string) {
    await this.db
      .update(this.tables.partners)
      .set({ isDefault: false })
      .where(
        and(
          eq(this.tables.partners.organizationId, organizationId),
          ne(this.tables.partners.id, keepId),
          eq(this.tables.partners.isDefault, true),
        ),
      )
  }
}
