import { and, count, eq, gte, lte, ne, or, sum, type SQL } from 'drizzle-orm'
import type { NeedReportRepository } from '../../../application/ports/repositories/need-report-repository'
import type { NeedStatus } from '../../../domain/needs/need'
import type { NeedFigures, ReportPeriod } from '../../../domain/reports/needs-report'
import { openAndDueBefore } from './sql-need-repository'
import { SqlRepository } from './sql-repository'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

/**
 * The report's figures from the kept counts (need_days, need_resolve_hours, need_counts: each a few rows per
 * partner and day or status) and the overdue needs counted on the partial index `needs_open_by_due`.
 */
export class SqlNeedReportRepository extends SqlRepository implements NeedReportRepository {
  async figures(organizationId: string, period: ReportPeriod, now: Date, partnerId?: string): Promise<NeedFigures> {
    const { needDays: d, needResolveHours: h, needCounts: c, needs: n } = this.tables
    const ofPartner = (column: SQLiteColumn) => (partnerId ? eq(column, partnerId) : undefined)
    const inPeriod = (table: typeof d | typeof h): SQL | undefined =>
      and(eq(table.organizationId, organizationId), gte(table.day, period.from), lte(table.day, period.to), ofPartner(table.partnerId))
    const [days, resolveHours, statuses, overdue] = await Promise.all([
      this.db
        .select({ partnerId: d.partnerId, day: d.day, opened: d.opened, resolved: d.resolved })
        .from(d)
        .where(and(inPeriod(d), or(ne(d.opened, 0), ne(d.resolved, 0)))),
      this.db
        .select({ partnerId: h.partnerId, hours: h.hours, needs: sum(h.needs).mapWith(Number) })
        .from(h)
        .where(and(inPeriod(h), ne(h.needs, 0)))
        .groupBy(h.partnerId, h.hours),
      this.db
        .select({ partnerId: c.partnerId, status: c.status, needs: c.needs })
        .from(c)
        .where(and(eq(c.organizationId, organizationId), ofPartner(c.partnerId), ne(c.needs, 0))),
      this.db
        .select({ partnerId: n.partnerId, needs: count() })
        .from(n)
        .where(and(eq(n.organizationId, organizationId), openAndDueBefore(n, now), ofPartner(n.partnerId)))
        .groupBy(n.partnerId),
    ])
    return {
      days,
      resolveHours,
      statuses: statuses.map((row) => ({ ...row, status: row.status as NeedStatus })),
      overdue: overdue.map((row) => ({ ...row, needs: Number(row.needs) })),
    }
  }
}
