import { and, countDistinct, eq, gte, lt, lte, ne, or, sql, sum } from 'drizzle-orm'
import type { NeedReportRepository } from '../../../application/ports/repositories/need-report-repository'
import type { NeedStatus } from '../../../domain/needs/need'
import { periodMonths, type NeedFigures, type ReportPeriod } from '../../../domain/reports/needs-report'
import type { ServedFigures } from '../../../domain/reports/served-report'
import { countOpenDueBefore } from './sql-open-due'
import { SqlRepository } from './sql-repository'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

/**
 * The report's figures from the kept counts (need_days, need_resolve_hours and need_resolve_months, need_counts,
 * need_due_totals and need_due_weeks: each a few rows per partner and day, month, week or status), the overdue
 * needs as `countOpenDueBefore` counts them. Resolve times are read by month for the period's whole months and
 * by day for the days at its ends (`periodMonths`), so a year is twelve months of rows, not 365 days of them.
 */
export class SqlNeedReportRepository extends SqlRepository implements NeedReportRepository {
  async figures(organizationId: string, period: ReportPeriod, now: Date, partnerId?: string): Promise<NeedFigures> {
    const { needDays: d, needCounts: c } = this.tables
    // One prepared statement each, with or without a partner: building them cost more than reading a month.
    const shape = partnerId ? 'partner' : 'all'
    const values = { organizationId, from: period.from, to: period.to, ...(partnerId ? { partnerId } : {}) }
    const run = this.runPrepared
    const [days, resolveHours, statuses, overdueByStatus] = await Promise.all([
      run<NeedFigures['days'][number]>(
        `report_days_${shape}`,
        () =>
          this.db
            .select({ partnerId: d.partnerId, day: d.day, opened: d.opened, resolved: d.resolved })
            .from(d)
            .where(and(this.inRange(d, d.day, partnerId), or(ne(d.opened, 0), ne(d.resolved, 0)))),
        values,
      ),
      this.resolveHours(period, shape, values, partnerId),
      run<{ partnerId: string; status: string; needs: number }>(
        `report_statuses_${shape}`,
        () =>
          this.db
            .select({ partnerId: c.partnerId, status: c.status, needs: c.needs })
            .from(c)
            .where(
              and(
                eq(c.organizationId, sql.placeholder('organizationId')),
                partnerId ? eq(c.partnerId, sql.placeholder('partnerId')) : undefined,
                ne(c.needs, 0),
              ),
            ),
        values,
      ),
      countOpenDueBefore(run, this.db, this.tables, organizationId, now, partnerId ? { partnerId } : {}),
    ])
    const overdue = new Map<string, number>()
    for (const row of overdueByStatus) overdue.set(row.partnerId, (overdue.get(row.partnerId) ?? 0) + row.needs)
    return {
      days,
      resolveHours,
      statuses: statuses.map((row) => ({ ...row, status: row.status as NeedStatus })),
      overdue: [...overdue].map(([partnerId, needs]) => ({ partnerId, needs })),
    }
  }

  /** The period's resolve-time histogram: its whole months' rows and its other days' rows, summed per partner and hour. */
  private async resolveHours(
    period: ReportPeriod,
    shape: string,
    values: Record<string, unknown>,
    partnerId: string | undefined,
  ): Promise<NeedFigures['resolveHours']> {
    const { needResolveHours: h, needResolveMonths: m } = this.tables
    const { months, days } = periodMonths(period)
    type Row = NeedFigures['resolveHours'][number]
    const histogram = (table: typeof h | typeof m, range: SQLiteColumn) =>
      this.db
        .select({ partnerId: table.partnerId, hours: table.hours, needs: sum(table.needs).mapWith(Number) })
        .from(table)
        .where(and(this.inRange(table, range, partnerId), ne(table.needs, 0)))
        .groupBy(table.partnerId, table.hours)
    const parts = await Promise.all([
      ...days.map((range) => this.runPrepared<Row>(`report_resolve_hours_${shape}`, () => histogram(h, h.day), { ...values, ...range })),
      ...(months ? [this.runPrepared<Row>(`report_resolve_months_${shape}`, () => histogram(m, m.month), { ...values, ...months })] : []),
    ])
    const summed = new Map<string, Row>()
    for (const row of parts.flat()) {
      const key = `${row.partnerId} ${row.hours}`
      const seen = summed.get(key)
      if (seen) seen.needs += row.needs
      else summed.set(key, { ...row })
    }
    return [...summed.values()]
  }

  /** The organization's kept rows from the placeholder `from` to `to`, both included, of one partner if given. */
  private inRange(table: { organizationId: SQLiteColumn; partnerId: SQLiteColumn }, key: SQLiteColumn, partnerId?: string) {
    return and(
      eq(table.organizationId, sql.placeholder('organizationId')),
      gte(key, sql.placeholder('from')),
      lte(key, sql.placeholder('to')),
      partnerId ? eq(table.partnerId, sql.placeholder('partnerId')) : undefined,
    )
  }

  /**
   * Two counts of the period's resolved needs, in all and grouped by partner. Not prepared: the times go through the
   * column's encoder (each database stores a time its way). No index holds the resolution time: the organization's
   * needs are read (docs/api/needs.md "People served").
   */
  async served(organizationId: string, since: Date, until: Date, partnerId?: string): Promise<ServedFigures> {
    const t = this.tables.needs
    const counts = { people: countDistinct(t.constituentId), households: countDistinct(t.householdId) }
    const where = and(
      eq(t.organizationId, organizationId),
      gte(t.resolvedAt, since),
      lt(t.resolvedAt, until),
      partnerId ? eq(t.partnerId, partnerId) : undefined,
    )
    const [[total], byPartner] = await Promise.all([
      this.db.select(counts).from(t).where(where),
      this.db
        .select({ partnerId: t.partnerId, ...counts })
        .from(t)
        .where(where)
        .groupBy(t.partnerId),
    ])
    return { total: total ?? { people: 0, households: 0 }, byPartner }
  }
}
