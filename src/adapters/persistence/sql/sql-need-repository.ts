import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { NeedFilter, NeedRepository } from '../../../application/ports/repositories'
import type { Need, NeedChange, NeedStatus, TrackedField } from '../../../domain/needs/need'
import { offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

function toNeed(row: typeof schema.needs.$inferSelect): Need {
  const { status, ...rest } = present(row)
  return { ...rest, status: status as NeedStatus }
}

function needRow(n: Need) {
  return {
    ...n,
    parentNeedId: nullable(n.parentNeedId),
    assignedTo: nullable(n.assignedTo),
    createdBy: nullable(n.createdBy),
    dueDate: nullable(n.dueDate),
    constituentId: nullable(n.constituentId),
    householdId: nullable(n.householdId),
    duplicateWarning: nullable(n.duplicateWarning),
  }
}

export class SqlNeedRepository extends SqlRepository implements NeedRepository {
  async insert(n: Need) {
    await this.db.insert(this.s.needs).values(needRow(n))
  }
  async update(n: Need) {
    const { id, organizationId, createdAt: _createdAt, referenceNumber: _reference, ...fields } = needRow(n)
    await this.db
      .update(this.s.needs)
      .set(fields)
      .where(and(eq(this.s.needs.id, id), eq(this.s.needs.organizationId, organizationId)))
  }
  /** One need of the organization by `column` (its id or its reference number), prepared. */
  private async one(column: 'id' | 'referenceNumber', value: string, organizationId: string) {
    const t = this.s.needs
    const [row] = await this.prepared<typeof t.$inferSelect>(
      `need_by_${column}`,
      () => this.db.select().from(t).where(and(eq(t.organizationId, sql.placeholder('organizationId')), eq(t[column], sql.placeholder('value')))).limit(1),
      { organizationId, value },
    )
    return row ? toNeed(row) : undefined
  }
  findById(organizationId: string, id: string) {
    return this.one('id', id, organizationId)
  }
  findByReferenceNumber(organizationId: string, referenceNumber: string) {
    return this.one('referenceNumber', referenceNumber, organizationId)
  }
  async list(organizationId: string, filter: NeedFilter, page: PageRequest): Promise<Page<Need>> {
    const where = and(
      eq(this.s.needs.organizationId, organizationId),
      filter.statuses ? inArray(this.s.needs.status, filter.statuses) : undefined,
      filter.partnerId ? eq(this.s.needs.partnerId, filter.partnerId) : undefined,
      filter.assignedTo ? eq(this.s.needs.assignedTo, filter.assignedTo) : undefined,
      filter.constituentId ? eq(this.s.needs.constituentId, filter.constituentId) : undefined,
    )
    const rows = await this.db
      .select()
      .from(this.s.needs)
      .where(where)
      .orderBy(desc(this.s.needs.createdAt), desc(this.s.needs.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    return { items: rows.map(toNeed), total: await this.total(organizationId, filter, where) }
  }
  /**
   * By organization, partner and status the total is a sum over need_counts (a few rows, kept by triggers),
   * so it costs the same at a million needs as at ten. Needs of one assignee or one constituent are few:
   * those are counted on their index.
   */
  private async total(organizationId: string, filter: NeedFilter, where: SQL | undefined): Promise<number> {
    if (filter.assignedTo || filter.constituentId) {
      const [row] = await this.db.select({ n: count() }).from(this.s.needs).where(where)
      return row?.n ?? 0
    }
    const c = this.s.needCounts
    const [row] = await this.db
      .select({ n: sql<number | null>`sum(${c.needs})` })
      .from(c)
      .where(
        and(
          eq(c.organizationId, organizationId),
          filter.statuses ? inArray(c.status, filter.statuses) : undefined,
          filter.partnerId ? eq(c.partnerId, filter.partnerId) : undefined,
        ),
      )
    return Number(row?.n ?? 0)
  }
  async appendChanges(changes: NeedChange[]) {
    if (changes.length === 0) return
    await this.db.insert(this.s.needChanges).values(
      changes.map(({ from, to, changedBy, ...c }) => ({
        ...c,
        fromValue: nullable(from),
        toValue: nullable(to),
        changedBy: nullable(changedBy),
      })),
    )
  }
  async listChanges(organizationId: string, needId: string) {
    const rows = await this.db
      .select()
      .from(this.s.needChanges)
      .where(and(eq(this.s.needChanges.organizationId, organizationId), eq(this.s.needChanges.needId, needId)))
      .orderBy(asc(this.s.needChanges.seq))
    return rows.map((row) => {
      const { fromValue, toValue, field, seq: _seq, ...rest } = present(row)
      return {
        ...rest,
        field: field as TrackedField,
        ...(fromValue !== undefined ? { from: fromValue } : {}),
        ...(toValue !== undefined ? { to: toValue } : {}),
      } satisfies NeedChange
    })
  }
  async moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string) {
    await this.db
      .update(this.s.needs)
      .set({ constituentId: toConstituentId, householdId })
      .where(and(eq(this.s.needs.organizationId, organizationId), eq(this.s.needs.constituentId, fromConstituentId)))
  }
  async newestOfConstituents(organizationId: string, constituentIds: string[], openOnly = false) {
    if (constituentIds.length === 0) return []
    const rows = await this.db
      .select()
      .from(this.s.needs)
      .where(
        and(
          eq(this.s.needs.organizationId, organizationId),
          inArray(this.s.needs.constituentId, constituentIds),
          openOnly ? ne(this.s.needs.status, 'RESOLVED') : undefined,
        ),
      )
      .orderBy(desc(this.s.needs.createdAt), desc(this.s.needs.id))
      .limit(20)
    return rows.map(toNeed)
  }
  async setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string) {
    await this.db
      .update(this.s.needs)
      .set({ householdId })
      .where(and(eq(this.s.needs.organizationId, organizationId), eq(this.s.needs.constituentId, constituentId)))
  }
}
