import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { HouseholdMatchRepository } from '../../../application/ports/repositories/household-match-repository'
import type { HouseholdMatch, MatchStatus, ResolveAction } from '../../../domain/constituents/household-match'
import { newestFirst, offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

export function toMatch(row: typeof schema.householdMatches.$inferSelect): HouseholdMatch {
  const { status, action, ...rest } = present(row)
  return { ...rest, status: status as MatchStatus, ...(action ? { action: action as ResolveAction } : {}) }
}

export class SqlHouseholdMatchRepository extends SqlRepository implements HouseholdMatchRepository {
  async insert(m: HouseholdMatch) {
    await this.insertMany([m])
  }
  async insertMany(matches: readonly HouseholdMatch[]) {
    await this.insertPreparedRows('household_match_insert', this.tables.householdMatches, matches.map(matchRow))
  }
  async update(m: HouseholdMatch) {
    await this.updateInOrganization(this.tables.householdMatches, matchRow(m))
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.tables.householdMatches, organizationId, id)
    return row ? toMatch(row) : undefined
  }
  async list(organizationId: string, status: MatchStatus | undefined, page: PageRequest): Promise<Page<HouseholdMatch>> {
    const where = and(
      eq(this.tables.householdMatches.organizationId, organizationId),
      status ? eq(this.tables.householdMatches.status, status) : undefined,
    )
    const rows = await this.db
      .select()
      .from(this.tables.householdMatches)
      .where(where)
      .orderBy(desc(this.tables.householdMatches.createdAt), desc(this.tables.householdMatches.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.tables.householdMatches).where(where)
    return { items: rows.map(toMatch), total: total?.n ?? 0 }
  }
  async listInvolving(organizationId: string, constituentId: string) {
    const t = this.tables.householdMatches
    // One indexed lookup per side, merged here. As one OR the planner walked the organization's matches in
    // list order (household_matches_newest) and tested each: a check that grew with every match recorded.
    const side = (column: 'constituentId' | 'candidateConstituentId') =>
      this.prepared<typeof t.$inferSelect>(
        `household_matches_by_${column}`,
        () =>
          this.db
            .select()
            .from(t)
            .where(and(eq(t.organizationId, sql.placeholder('organizationId')), eq(t[column], sql.placeholder('constituentId')))),
        { organizationId, constituentId },
      )
    const rows = [...(await side('constituentId')), ...(await side('candidateConstituentId'))]
    return rows.sort((a, b) => -newestFirst(a, b)).map(toMatch)
  }
  async delete(organizationId: string, id: string) {
    await this.db
      .delete(this.tables.householdMatches)
      .where(and(eq(this.tables.householdMatches.organizationId, organizationId), eq(this.tables.householdMatches.id, id)))
  }
}

function matchRow(m: HouseholdMatch) {
  return { ...m, resolvedAt: nullable(m.resolvedAt), resolvedBy: nullable(m.resolvedBy), action: nullable(m.action) }
}
