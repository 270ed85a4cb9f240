import { and, count, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import type { OrganizationRepository } from '../../../application/ports/repositories/organization-repository'
import { FIRST_REFERENCE_NUMBER } from '../../../domain/needs/need'
import type { Organization } from '../../../domain/organizations/organization'
import { ConflictError } from '../../../domain/errors'
import { SqlRepository, nullable, present } from './sql-repository'

export class SqlOrganizationRepository extends SqlRepository implements OrganizationRepository {
  async insert(o: Organization) {
    await this.conflictOnUnique(this.db.insert(this.tables.organizations).values({ ...o, needSequence: FIRST_REFERENCE_NUMBER - 1 }))
    await this.hold(o.id, o.slug)
  }
  /**
   * Records `slug` as the organization's for good. One another organization holds is a ConflictError; two taking
   * the same one at once meet at the primary key.
   */
  private async hold(organizationId: string, slug: string) {
    const s = this.tables.organizationSlugs
    const [held] = await this.db.select({ organizationId: s.organizationId }).from(s).where(eq(s.slug, slug))
    if (held?.organizationId === organizationId) return
    if (held) throw new ConflictError(UNIQUE_CONFLICTS.organizationSlug)
    await this.conflictOnUnique(this.db.insert(s).values({ slug, organizationId }))
  }
  private async one(where: SQL) {
    const [row] = await this.db.select().from(this.tables.organizations).where(where).limit(1)
    if (!row) return undefined
    const { needSequence: _sequence, retentionRanAt: _ran, ...organization } = present(row)
    return organization satisfies Organization
  }
  async findById(id: string) {
    const t = this.tables.organizations
    const [row] = await this.prepared<typeof t.$inferSelect>(
      'organization_by_id',
      () =>
        this.db
          .select()
          .from(t)
          .where(eq(t.id, sql.placeholder('id'))),
      { id },
    )
    if (!row) return undefined
    const { needSequence: _sequence, retentionRanAt: _ran, ...organization } = present(row)
    return organization satisfies Organization
  }
  findBySlug(slug: string) {
    return this.one(eq(this.tables.organizations.slug, slug))
  }
  async findByAnySlug(slug: string) {
    const s = this.tables.organizationSlugs
    const holder = this.db.select({ id: s.organizationId }).from(s).where(eq(s.slug, slug))
    return (await this.findBySlug(slug)) ?? this.one(inArray(this.tables.organizations.id, holder))
  }
  findByPhoneNumber(phoneNumber: string) {
    return this.one(eq(this.tables.organizations.phoneNumber, phoneNumber))
  }
  findByShortCode(shortCode: string) {
    return this.one(eq(this.tables.organizations.shortCode, shortCode))
  }
  async update(o: Organization) {
    const { id, createdAt: _createdAt, ...fields } = o
    const t = this.tables.organizations
    const [before] = await this.db.select({ slug: t.slug }).from(t).where(eq(t.id, id))
    if (before && before.slug !== o.slug) {
      await this.hold(id, before.slug)
      await this.hold(id, o.slug)
    }
    await this.conflictOnUnique(
      this.db
        .update(this.tables.organizations)
        .set({
          ...fields,
          shortCode: nullable(o.shortCode),
          tcrStatus: nullable(o.tcrStatus),
          description: nullable(o.description),
          phoneNumber: nullable(o.phoneNumber),
          auditRetentionDays: nullable(o.auditRetentionDays),
          constituentRetentionDays: nullable(o.constituentRetentionDays),
          needTextRetentionDays: nullable(o.needTextRetentionDays),
          appOrigins: nullable(o.appOrigins),
          formOrigins: nullable(o.formOrigins),
          digestHour: nullable(o.digestHour),
          timeZone: nullable(o.timeZone),
          confirmRequests: nullable(o.confirmRequests),
          publishDirectory: nullable(o.publishDirectory),
          quickReplies: nullable(o.quickReplies),
        })
        .where(eq(this.tables.organizations.id, id)),
    )
  }
  async lockForUpdate(id: string) {
    await this.dialect.lockRow(
      this.db.select({ id: this.tables.organizations.id }).from(this.tables.organizations).where(eq(this.tables.organizations.id, id)),
    )
  }
  async count() {
    const [row] = await this.db.select({ n: count() }).from(this.tables.organizations)
    return row?.n ?? 0
  }
  async auditRetentions() {
    const t = this.tables.organizations
    const rows = await this.db.select({ organizationId: t.id, auditRetentionDays: t.auditRetentionDays }).from(t)
    return rows.map(present)
  }
  async dataRetentions() {
    const t = this.tables.organizations
    const rows = await this.db
      .select({
        organizationId: t.id,
        constituentRetentionDays: t.constituentRetentionDays,
        needTextRetentionDays: t.needTextRetentionDays,
      })
      .from(t)
      .where(or(isNotNull(t.constituentRetentionDays), isNotNull(t.needTextRetentionDays)))
    return rows.map(present)
  }
  async claimRetentionRun(organizationId: string, at: Date, lastRunBefore: Date) {
    const t = this.tables.organizations
    // The condition is checked again on the row a concurrent claim left: on PostgreSQL the second writer
    // waits for the first and then finds the row taken; SQLite has one writer at a time.
    const claimed = await this.db
      .update(t)
      .set({ retentionRanAt: at })
      .where(and(eq(t.id, organizationId), or(isNull(t.retentionRanAt), lte(t.retentionRanAt, lastRunBefore))))
      .returning({ id: t.id })
    return claimed.length > 0
  }
  async digestSchedules() {
    const t = this.tables.organizations
    const rows = await this.db.select({ organizationId: t.id, digestHour: t.digestHour, timeZone: t.timeZone }).from(t)
    return rows.map(present)
  }
}
