import { and, count, eq, gte, inArray, isNull, lt, sql, sum, type Placeholder, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { NeedFilter } from '../../../application/ports/repositories/need-repository'
import type { NeedStatus } from '../../../domain/needs/need'
import { weekOf } from '../../../domain/reports/needs-report'
import type * as schema from '../sqlite/schema'
import type { RunPrepared, SqlDb } from './sql-repository'

// Open needs by due date, for the overdue list, the needs report and the daily digest (docs/api/needs.md "Needs").

/**
 * `isOpenAndDueBefore` in SQL: the status a literal, not a parameter, so that both databases take the partial
 * index `needs_open_by_due` (its condition) whatever the plan is made for. `before` is a time, or the
 * placeholder of a prepared statement given `dueTimeOf(before)`.
 */
export function openAndDueBefore(t: typeof schema.needs, before: Date | Placeholder): SQL | undefined {
  return and(sql`${t.status} <> 'RESOLVED'`, lt(t.dueDate, before))
}

/** A time as the due date's column stores it (each database its own way), for a prepared statement's placeholder. */
export function dueTimeOf(t: typeof schema.needs, time: Date): unknown {
  return t.dueDate.mapToDriverValue(time)
}

/**
 * How many open needs are due before `before`, per partner and status, without reading them one by one: all
 * the open needs with a due date (`need_due_totals`) less those of its week and later (`need_due_weeks`, both
 * kept by triggers), plus those of its own week before it, on the index `needs_open_by_due`, which holds
 * partner and status. The weeks read are those from now to the furthest due date, a few, where the weeks
 * before now grow by one a week for ever. `filter` narrows to a partner and statuses; each shape of it is one
 * trio of prepared statements.
 */
export async function countOpenDueBefore(
  run: RunPrepared,
  db: SqlDb,
  tables: typeof schema,
  organizationId: string,
  before: Date,
  filter: Pick<NeedFilter, 'partnerId' | 'statuses'> = {},
): Promise<Array<{ partnerId: string; status: NeedStatus; needs: number }>> {
  const { needDueWeeks: w, needDueTotals: total, needs: n } = tables
  const week = weekOf(before)
  const { shape, values, narrowed } = narrowing(filter, {
    organizationId,
    week,
    before: dueTimeOf(n, before),
    weekStart: dueTimeOf(n, new Date(`${week}T00:00:00.000Z`)),
  })
  type Count = { partnerId: string; status: string; needs: number | string }
  const [totals, later, sameWeek] = await Promise.all([
    run<Count>(
      `open_due_totals_${shape}`,
      () =>
        db
          .select({ partnerId: total.partnerId, status: total.status, needs: total.needs })
          .from(total)
          .where(and(eq(total.organizationId, sql.placeholder('organizationId')), narrowed(total.partnerId, total.status))),
      values,
    ),
    run<Count>(
      `open_due_later_weeks_${shape}`,
      () =>
        db
          .select({ partnerId: w.partnerId, status: w.status, needs: sum(w.needs).mapWith(Number) })
          .from(w)
          .where(
            and(
              eq(w.organizationId, sql.placeholder('organizationId')),
              gte(w.dueWeek, sql.placeholder('week')),
              narrowed(w.partnerId, w.status),
            ),
          )
          .groupBy(w.partnerId, w.status),
      values,
    ),
    run<Count>(
      `open_due_same_week_${shape}`,
      () =>
        db
          .select({ partnerId: n.partnerId, status: n.status, needs: count() })
          .from(n)
          .where(
            and(
              eq(n.organizationId, sql.placeholder('organizationId')),
              openAndDueBefore(n, sql.placeholder('before')),
              gte(n.dueDate, sql.placeholder('weekStart')),
              narrowed(n.partnerId, n.status),
            ),
          )
          .groupBy(n.partnerId, n.status),
      values,
    ),
  ])
  const counts = new Map<string, { partnerId: string; status: NeedStatus; needs: number }>()
  const add = (rows: Count[], sign: number) => {
    for (const row of rows) {
      const key = `${row.partnerId} ${row.status}`
      const count = counts.get(key) ?? { partnerId: row.partnerId, status: row.status as NeedStatus, needs: 0 }
      count.needs += sign * Number(row.needs)
      counts.set(key, count)
    }
  }
  add(totals, 1)
  add(later, -1)
  add(sameWeek, 1)
  return [...counts.values()].filter((row) => row.needs !== 0)
}

/**
 * How many open needs are due before `before`, for a list's total (as `countOpenDueBefore` sums them): the open
 * needs need_counts keeps (a few rows, kept by triggers) less those on the index `needs_open_by_due` that are
 * not due by then, due at or after it or with no due date. Those are the needs still within their SLA or
 * dated ahead by hand, however long the organization's past; split by week, partner and status, that past is
 * a row for each (1,800 rows an organization at 10,000 needs, summed and grouped on every page). One statement.
 */
export async function countAllOpenDueBefore(
  run: RunPrepared,
  db: SqlDb,
  tables: typeof schema,
  organizationId: string,
  before: Date,
  filter: Pick<NeedFilter, 'partnerId' | 'statuses'> = {},
): Promise<number> {
  const { needCounts: c, needs: n } = tables
  const { shape, values, narrowed } = narrowing(filter, { organizationId, before: dueTimeOf(n, before) })
  const open = (status: SQLiteColumn) => sql`${status} <> 'RESOLVED'`
  const notDue = (due: SQL) =>
    db
      .select({ n: count() })
      .from(n)
      .where(and(eq(n.organizationId, sql.placeholder('organizationId')), open(n.status), due, narrowed(n.partnerId, n.status)))
  const [row] = await run<{ n: number | string | null }>(
    `open_due_total_${shape}`,
    () =>
      db
        .select({
          n: sql`coalesce(sum(${c.needs}), 0) - (${notDue(gte(n.dueDate, sql.placeholder('before')))}) - (${notDue(isNull(n.dueDate))})`,
        })
        .from(c)
        .where(and(eq(c.organizationId, sql.placeholder('organizationId')), open(c.status), narrowed(c.partnerId, c.status))),
    values,
  )
  return Number(row?.n ?? 0)
}

/** A filter of partner and statuses as placeholders: its shape (one statement each), their values beside `base`'s, and its condition. */
function narrowing(filter: Pick<NeedFilter, 'partnerId' | 'statuses'>, base: Record<string, unknown>) {
  const statuses = filter.statuses ?? []
  const values: Record<string, unknown> = {
    ...base,
    ...(filter.partnerId ? { partnerId: filter.partnerId } : {}),
    ...Object.fromEntries(statuses.map((status, i) => [`status${i}`, status])),
  }
  const narrowed = (partner: SQLiteColumn, status: SQLiteColumn) =>
    and(
      filter.partnerId ? eq(partner, sql.placeholder('partnerId')) : undefined,
      filter.statuses
        ? inArray(
            status,
            statuses.map((_, i) => sql.placeholder(`status${i}`)),
          )
        : undefined,
    )
  return { shape: `${statuses.length}${filter.partnerId ? 'p' : ''}`, values, narrowed }
}
