import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { DailyDigestRepository } from '../../../application/ports/repositories/daily-digest-repository'
import { openAndDueBefore } from './sql-open-due'
import { toNeed } from './sql-need-rows'
import { SqlRepository } from './sql-repository'

export class SqlDailyDigestRepository extends SqlRepository implements DailyDigestRepository {
  async membersDue(organizationId: string, localDate: string) {
    const m = this.tables.members
    const d = this.tables.dailyDigests
    const rows = await this.db
      .select({ id: m.id })
      .from(m)
      .leftJoin(d, eq(d.memberId, m.id))
      .where(
        and(eq(m.organizationId, organizationId), isNull(m.deactivatedAt), or(isNull(d.lastLocalDate), lt(d.lastLocalDate, localDate))),
      )
    return rows.map((row) => row.id)
  }
  async take(organizationId: string, memberId: string, localDate: string) {
    const d = this.tables.dailyDigests
    const m = this.tables.members
    // One statement: a rival's row (same member) makes this one wait for its commit, then re-read its date.
    // The row comes from the member's own, so a member of another organization is taken by nobody.
    const member = this.db
      .select({
        memberId: m.id,
        organizationId: m.organizationId,
        lastLocalDate: sql<string>`cast(${localDate} as text)`.as('last_local_date'),
      })
      .from(m)
      .where(and(eq(m.id, memberId), eq(m.organizationId, organizationId)))
    const taken = await this.db
      .insert(d)
      .select(member)
      .onConflictDoUpdate({
        target: d.memberId,
        set: { lastLocalDate: localDate },
        setWhere: and(eq(d.organizationId, organizationId), lt(d.lastLocalDate, localDate)),
      })
      .returning({ memberId: d.memberId })
    return taken.length > 0
  }
  async overdueAssignedTo(organizationId: string, memberId: string, now: Date, limit: number) {
    const t = this.tables.needs
    const rows = await this.db
      .select()
      .from(t)
      .where(and(eq(t.organizationId, organizationId), eq(t.assignedTo, memberId), openAndDueBefore(t, now)))
      .orderBy(asc(t.dueDate), asc(t.id))
      .limit(limit)
    return rows.map(toNeed)
  }
  async unassignedOpen(organizationId: string, partnerId: string | undefined, limit: number) {
    const t = this.tables.needs
    // The terms of the partial indexes needs_unassigned_open(_by_partner), word for word, so the planner uses
    // them; `assigned_to` (NULL throughout) leads the order as in the indexes, so PostgreSQL reads them in order.
    const rows = await this.db
      .select()
      .from(t)
      .where(
        and(
          eq(t.organizationId, organizationId),
          sql`${t.assignedTo} IS NULL AND ${t.status} <> 'RESOLVED'`,
          partnerId ? eq(t.partnerId, partnerId) : undefined,
        ),
      )
      .orderBy(asc(t.assignedTo), asc(t.createdAt), asc(t.id))
      .limit(limit)
    return rows.map(toNeed)
  }
}
