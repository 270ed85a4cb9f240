import { and, count, eq, gte, inArray, lt, sql, sum, type SQL } from 'drizzle-orm'
import type { NeedFilter } from '../../../application/ports/repositories/need-repository'
import type { NeedStatus } from '../../../domain/needs/need'
import { weekOf } from '../../../domain/reports/needs-report'
import type * as schema from '../sqlite/schema'
import type { SqlDb } from './sql-repository'

// Open needs by due date, for the overdue list, the needs report and the daily digest (docs/api/needs.md "Needs").

/**
 * `isOpenAndDueBefore` in SQL: the status a literal, not a parameter, so that both databases take the partial
 * index `needs_open_by_due` (its condition) whatever the plan is made for.
 */
export function openAndDueBefore(t: typeof schema.needs, before: Date): SQL | undefined {
  return and(sql`${t.status} <> 'RESOLVED'`, lt(t.dueDate, before))
}

/**
 * How many open needs are due before `before`, per partner and status, without reading them one by one: the
 * whole weeks before its week from `need_due_weeks` (kept by triggers), its own week on the index
 * `needs_open_by_due`. `filter` narrows to a partner and statuses.
 */
export async function countOpenDueBefore(
  db: SqlDb,
  tables: typeof schema,
  organizationId: string,
  before: Date,
  filter: Pick<NeedFilter, 'partnerId' | 'statuses'> = {},
): Promise<Array<{ partnerId: string; status: NeedStatus; needs: number }>> {
  const { needDueWeeks: w, needs: n } = tables
  const week = weekOf(before)
  const [weeks, sameWeek] = await Promise.all([
    db
      .select({ partnerId: w.partnerId, status: w.status, needs: sum(w.needs).mapWith(Number) })
      .from(w)
      .where(
        and(
          eq(w.organizationId, organizationId),
          lt(w.dueWeek, week),
          filter.partnerId ? eq(w.partnerId, filter.partnerId) : undefined,
          filter.statuses ? inArray(w.status, filter.statuses) : undefined,
        ),
      )
      .groupBy(w.partnerId, w.status),
    db
      .select({ partnerId: n.partnerId, status: n.status, needs: count() })
      .from(n)
      .where(
        and(
          eq(n.organizationId, organizationId),
          openAndDueBefore(n, before),
          gte(n.dueDate, new Date(`${week}T00:00:00.000Z`)),
          filter.partnerId ? eq(n.partnerId, filter.partnerId) : undefined,
          filter.statuses ? inArray(n.status, filter.statuses) : undefined,
        ),
      )
      .groupBy(n.partnerId, n.status),
  ])
  return [...weeks, ...sameWeek]
    .map((row) => ({ partnerId: row.partnerId, status: row.status as NeedStatus, needs: Number(row.needs) }))
    .filter((row) => row.needs !== 0)
}
