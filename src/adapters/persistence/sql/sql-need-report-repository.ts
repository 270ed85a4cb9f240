import { and, countDistinct, eq, gte, lt, lte, ne, or, sql, sum, type SQL } from 'drizzle-orm'
import type { NeedReportRepository } from '../../../application/ports/repositories/need-report-repository'
import type { NeedStatus } from '../../../domain/needs/need'
import type { NeedFigures, ReportPeriod } from '../../../domain/reports/needs-report'
import type { ServedFigures } from '../../../domain/reports/served-report'
import { countOpenDueBefore } from './sql-open-due'
import { SqlRepository } from './sql-repository'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

/**
 * The report's figures from the kept counts (need_days, need_resolve_hours, need_counts, need_due_weeks: each a
 * few rows per partner and day, week or status), the overdue needs as `countOpenDueBefore` counts them.
 */
export class SqlNeedReportRepository extends SqlRepository implements NeedReportRepository {
  async figures(organizationId: string, period: ReportPeriod, now: Date, partnerId?: string): Promise<NeedFigures> {
    const { needDays: d, needResolveHours: h, needCounts: c } = this.tables
    // One prepared statement each, with or without a partner: building them cost more than reading a month.
    const shape = partnerId ? 'partner' : 'all'
    const values = { organizationId, from: period.from, to: period.to, ...(partnerId ? { partnerId } : {}) }
    const ofPartner = (column: SQLiteColumn) => (partnerId ? eq(column, sql.placeholder('partnerId')) : undefined)
    const inPeriod = (table: typeof d | typeof h): SQL | undefined =>
      and(
        eq(table.organizationId, sql.placeholder('organizationId')),
        gte(table.day, sql.placeholder('from')),
        lte(table.day, sql.placeholder('to')),
        ofPartner(table.partnerId),
      )
    const run = this.runPrepared
    const [days, resolveHours, statuses, overdueByStatus] = await Promise.all([
      run<NeedFigures['days'][number]>(
        `report_days_${shape}`,
        () =>
          this.db
            .select({ partnerId: d.partnerId, day: d.day, opened: d.opened, resolved: d.resolved })
            .from(d)
            .where(and(inPeriod(d), or(ne(d.opened, 0), ne(d.resolved, 0)))),
        values,
      ),
      run<NeedFigures['resolveHours'][number]>(
        `report_resolve_hours_${shape}`,
        () =>
          this.db
            .select({ partnerId: h.partnerId, hours: h.hours, needs: sum(h.needs).mapWith(Number) })
            .from(h)
            .where(and(inPeriod(h), ne(h.needs, 0)))
            .groupBy(h.partnerId, h.hours),
        values,
      ),
      run<{ partnerId: string; status: string; needs: number }>(
        `report_statuses_${shape}`,
        () =>
          this.db
            .select({ partnerId: c.partnerId, status: c.status, needs: c.needs })
            .from(c)
            .where(and(eq(c.organizationId, sql.placeholder('organizationId')), ofPartner(c.partnerId), ne(c.needs, 0))),
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
