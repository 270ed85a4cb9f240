import { and, asc, count, desc, eq, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm'
import type { NeedFilter, NeedRepository, UnnumberedNeed } from '../../../application/ports/repositories/need-repository'
import { NotFoundError } from '../../../domain/errors'
import { formatReferenceNumber, type Need, type NeedChange, type TrackedField } from '../../../domain/needs/need'
import type { NeedSort } from '../../../domain/needs/search'
import { offsetOf, type Keyset, type Page, type PageRequest } from '../../../domain/shared/page'
import { countAllOpenDueBefore, dueTimeOf } from './sql-open-due'
import { needOf, needRow, toNeed } from './sql-need-rows'
import { SqlNeedSearch } from './sql-need-search'
import { hasPeriod, periodShape, periodValues } from './sql-need-periods'
import { afterKeyset, chunksOf, nullable, present } from './sql-repository'

export class SqlNeedRepository extends SqlNeedSearch implements NeedRepository {
  async insert(n: Need) {
    await this.preparedInsert('need_insert', this.tables.needs, needRow(n, n.referenceNumber))
    await this.addTerms([n])
  }
  async insertMany(needs: readonly UnnumberedNeed[]) {
    if (needs.length === 0) return { referenceNumbers: Promise.resolve([]) }
    if (this.dialect.numbersNeeds) return this.insertNumberedByDatabase(needs)
    const numbers = await this.takeReferenceNumbers(needs[0]!.organizationId, needs.length)
    await this.insertRows(
      'need_insert',
      this.tables.needs,
      needs.map((need, i) => ({ ...needRow(need), referenceNumber: numbers[i]! })),
    )
    await this.addTerms(needs)
    return { referenceNumbers: Promise.resolve(numbers) }
  }
  /**
   * `count` numbers of the organization's sequence, taken by one UPDATE … RETURNING inside the transaction:
   * SQLite's write lock makes concurrent takers queue, and a rollback gives them back.
   */
  private async takeReferenceNumbers(organizationId: string, count: number): Promise<string[]> {
    const t = this.tables.organizations
    const [row] = await this.prepared<{ n: number; shortCode: string | null }>(
      'need_references_take',
      () =>
        this.db
          .update(t)
          .set({ needSequence: sql`${t.needSequence} + ${sql.placeholder('count')}` })
          .where(eq(t.id, sql.placeholder('organizationId')))
          .returning({ n: t.needSequence, shortCode: t.shortCode }),
      { organizationId, count },
    )
    if (!row) throw new NotFoundError('Organization')
    return Array.from({ length: count }, (_, i) => formatReferenceNumber(row.shortCode ?? undefined, row.n - count + 1 + i))
  }
  /**
   * PostgreSQL: the insert's trigger takes each row's number (migration 0017_need_reference_trigger), so the
   * organization's row is locked only from the insert on, and the insert returns the numbers. One need (a
   * creation) is sent on with what follows, COMMIT with it when nothing awaits its number; many (an import's
   * batch) are awaited, in multi-row inserts.
   */
  private async insertNumberedByDatabase(needs: readonly UnnumberedNeed[]) {
    const t = this.tables.needs
    const returning = { id: t.id, referenceNumber: t.referenceNumber }
    const rows = needs.map((need) => needRow(need))
    if (rows.length === 1) {
      const inserting = this.preparedInsert<{ referenceNumber: string }>('need_insert_numbered', t, rows[0]!, [], returning)
      const { later } = await this.readLater(inserting, (returned) => returned.map((row) => row.referenceNumber))
      await this.addTerms(needs)
      return { referenceNumbers: later }
    }
    const numbers = new Map<string, string>()
    for (const chunk of chunksOf(rows)) {
      // NULL numbers are the trigger's to fill: the column's type says NOT NULL, as it is once the row is in.
      const returned = await this.db
        .insert(t)
        .values(chunk as unknown as Array<typeof t.$inferInsert>)
        .returning(returning)
      for (const row of returned) numbers.set(row.id, row.referenceNumber)
    }
    await this.addTerms(needs)
    return { referenceNumbers: Promise.resolve(needs.map((need) => numbers.get(need.id)!)) }
  }
  async update(n: Need) {
    await this.leaveBacklog(n.id)
    // Sent on with what follows: nothing reads its result, and its failure is the unit of work's all the same.
    await this.unread(this.updateInOrganization(this.tables.needs, needRow(n, n.referenceNumber), ['createdAt', 'referenceNumber']))
    await this.replaceTextTerms(n)
  }
  async clearResolvedText(organizationId: string, before: Date, at: Date, limit: number) {
    const t = this.tables.needs
    const rows = await this.db
      .select({ id: t.id })
      .from(t)
      // The status as a literal, not a parameter, so that the planner sees needs_text_retention's condition met.
      .where(and(eq(t.organizationId, organizationId), sql`${t.status} = 'RESOLVED'`, isNull(t.textClearedAt), lt(t.updatedAt, before)))
      .limit(limit)
    const ids = rows.map((row) => row.id)
    if (ids.length > 0) {
      await this.db
        .update(t)
        .set({ customFields: {}, textClearedAt: at })
        .where(and(eq(t.organizationId, organizationId), inArray(t.id, ids)))
      await this.removeTextTerms(organizationId, ids)
    }
    return ids
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.tables.needs, organizationId, id)
    return row ? needOf(row) : undefined
  }
  async findByReferenceNumber(organizationId: string, referenceNumber: string) {
    const t = this.tables.needs
    const [need] = await this.prepared(
      'need_by_reference_number',
      () =>
        this.db
          .select()
          .from(t)
          .where(and(eq(t.organizationId, sql.placeholder('organizationId')), eq(t.referenceNumber, sql.placeholder('referenceNumber')))),
      { organizationId, referenceNumber },
      this.records,
    )
    return need
  }
  async findCreatedAt(organizationId: string, times: readonly Date[]) {
    if (times.length === 0) return []
    const t = this.tables.needs
    const rows = await this.db
      .select()
      .from(t)
      .where(and(eq(t.organizationId, organizationId), inArray(t.createdAt, [...times])))
    return rows.map(toNeed)
  }
  /**
   * Each shape of filter (which fields, how many statuses, a due bound) is one prepared statement with its
   * values as placeholders: building the query costs several times more than running it. At most 16 shapes ×
   * 6 counts of statuses. A due bound lists soonest due first, in the order of the index of open needs' due
   * dates; by partner and status its total is `countAllOpenDueBefore` (needs of one assignee or one constituent
   * are few, counted on their index).
   */
  async list(organizationId: string, asked: NeedFilter, page: PageRequest, sort?: NeedSort): Promise<Page<Need>> {
    if (asked.statuses?.length === 0) return { items: [], total: 0 }
    // Distinct statuses: shapes stay few (one statement per count of statuses), whatever the caller repeats.
    const filter = asked.statuses ? { ...asked, statuses: [...new Set(asked.statuses)] } : asked
    if (filter.search) return this.searchPage(organizationId, filter, page, sort)
    const due = filter.openDueBefore
    const shape = [
      filter.statuses?.length ?? 0,
      filter.partnerId ? 'p' : '',
      filter.assignedTo ? 'a' : '',
      filter.constituentId ? 'c' : '',
      due ? 'd' : '',
      filter.needsAttention ? 'n' : '',
      periodShape(filter),
      sort ?? '',
    ].join('')
    const t = this.tables.needs
    const values: Record<string, unknown> = { organizationId, limit: page.limit, offset: offsetOf(page) }
    for (const [i, status] of (filter.statuses ?? []).entries()) values[`status${i}`] = status
    for (const key of ['partnerId', 'assignedTo', 'constituentId'] as const) if (filter[key]) values[key] = filter[key]
    if (due) values.before = dueTimeOf(t, due)
    Object.assign(values, periodValues(t, filter))
    const where = () => this.matching({ ...filter, organizationId }, true)
    const items = await this.prepared(
      `needs_page_${shape}`,
      () =>
        this.db
          .select()
          .from(t)
          .where(where())
          .orderBy(...this.orderOf(sort, due !== undefined))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset')),
      values,
      this.records,
    )
    if (!due || countsRows(filter)) return { items, total: await this.total(shape, filter, where, values) }
    return { items, total: await countAllOpenDueBefore(this.runPrepared, this.db, this.tables, organizationId, due, filter) }
  }
  /** An export's batch by keyset. Not prepared: the values go through the columns' encoders (each database stores a time its way). */
  async listAfter(organizationId: string, filter: NeedFilter, after: Keyset | undefined, limit: number): Promise<Need[]> {
    if (filter.statuses?.length === 0) return []
    const t = this.tables.needs
    const rows = await this.db
      .select()
      .from(t)
      .where(and(this.matching({ ...filter, organizationId }, false), afterKeyset(t, after)))
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(limit)
    return rows.map(toNeed)
  }
  /**
   * By organization, partner and status the total is a sum over need_counts (a few rows, kept by triggers),
   * so it costs the same at a million needs as at ten. Needs of one assignee or one constituent, and those
   * marked for attention, are few: those are counted on their index.
   */
  private async total(shape: string, filter: NeedFilter, where: () => SQL | undefined, values: Record<string, unknown>): Promise<number> {
    const c = this.tables.needCounts
    const [row] = await this.prepared<{ n: number | string | null }>(
      `needs_total_${shape}`,
      () =>
        countsRows(filter)
          ? this.db.select({ n: count() }).from(this.tables.needs).where(where())
          : this.db
              .select({ n: sql<number | null>`sum(${c.needs})` })
              .from(c)
              .where(
                and(
                  eq(c.organizationId, sql.placeholder('organizationId')),
                  filter.statuses
                    ? inArray(
                        c.status,
                        filter.statuses.map((_, i) => sql.placeholder(`status${i}`)),
                      )
                    : undefined,
                  filter.partnerId ? eq(c.partnerId, sql.placeholder('partnerId')) : undefined,
                ),
              ),
      values,
    )
    return Number(row?.n ?? 0)
  }
  async appendChanges(changes: NeedChange[]) {
    const rows = changes.map(({ from, to, changedBy, ...change }) => ({
      ...change,
      fromValue: nullable(from),
      toValue: nullable(to),
      changedBy: nullable(changedBy),
    }))
    await this.insertRows('need_change_insert', this.tables.needChanges, rows, ['seq'])
  }
  async listChanges(organizationId: string, needId: string, page: PageRequest): Promise<Page<NeedChange>> {
    const c = this.tables.needChanges
    const where = and(eq(c.organizationId, organizationId), eq(c.needId, needId))
    const rows = await this.db.select().from(c).where(where).orderBy(asc(c.seq)).limit(page.limit).offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(c).where(where)
    const items = rows.map((row) => {
      const { fromValue, toValue, field, seq: _seq, ...rest } = present(row)
      return {
        ...rest,
        field: field as TrackedField,
        ...(fromValue !== undefined ? { from: fromValue } : {}),
        ...(toValue !== undefined ? { to: toValue } : {}),
      } satisfies NeedChange
    })
    return { items, total: total?.n ?? 0 }
  }
  async moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string) {
    await this.db
      .update(this.tables.needs)
      .set({ constituentId: toConstituentId, householdId })
      .where(and(eq(this.tables.needs.organizationId, organizationId), eq(this.tables.needs.constituentId, fromConstituentId)))
  }
  async setAttention(organizationId: string, needId: string, attention: boolean) {
    const t = this.tables.needs
    await this.db
      .update(t)
      .set({ needsAttention: attention ? true : null })
      .where(and(eq(t.organizationId, organizationId), eq(t.id, needId)))
  }
  async newestOfConstituents(organizationId: string, constituentIds: string[], openOnly = false) {
    if (constituentIds.length === 0) return []
    const rows = await this.db
      .select()
      .from(this.tables.needs)
      .where(
        and(
          eq(this.tables.needs.organizationId, organizationId),
          inArray(this.tables.needs.constituentId, constituentIds),
          openOnly ? ne(this.tables.needs.status, 'RESOLVED') : undefined,
        ),
      )
      .orderBy(desc(this.tables.needs.createdAt), desc(this.tables.needs.id))
      .limit(20)
    return rows.map(toNeed)
  }
  async setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string) {
    await this.db
      .update(this.tables.needs)
      .set({ householdId })
      .where(and(eq(this.tables.needs.organizationId, organizationId), eq(this.tables.needs.constituentId, constituentId)))
  }
}

/**
 * Whether a list's total is counted on the needs themselves: those of one assignee or one constituent, and those
 * marked for attention, are few, on their index; a period's are counted in its range of the list's index
 * (needs_newest for a creation period; a resolution period walks the organization's needs, see docs/api/needs.md).
 */
const countsRows = (filter: NeedFilter) => Boolean(filter.assignedTo || filter.constituentId || filter.needsAttention || hasPeriod(filter))
