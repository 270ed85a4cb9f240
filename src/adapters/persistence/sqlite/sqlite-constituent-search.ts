import { and, sql } from 'drizzle-orm'
import type { PageRequest } from '../../../domain/shared/page'
import {
  ConstituentSearch,
  queryPrefixes,
  searchKindOf,
  type MatchingQuery,
  type SearchKind,
  type SearchParameter,
} from '../sql/constituent-search'
import { constituents as c } from './schema'

/** Past this many matches a search page is read by walking the organization's constituents newest first. */
const MANY_SEARCH_MATCHES = 500

/**
 * SQLite: name words and phone endings in FTS5 (constituent_search, both columns: their marks keep them
 * apart), an email by its key.
 */
export class SqliteConstituentSearch extends ConstituentSearch {
  protected async pageOfMatches(organizationId: string, query: MatchingQuery, page: PageRequest) {
    if (query.kind === 'email') return this.pageAndCount(organizationId, query, page)
    // Every term carries its organization's mark, so the index's own count is the organization's; the count
    // decides how the page is read.
    const match = this.matchOf(organizationId, query)
    const [counted] = await this.db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM constituent_search WHERE constituent_search MATCH ${match}`,
    )
    const total = Number(counted?.n ?? 0)
    if (total === 0) return { rows: [], total }
    const manyMatches = total > MANY_SEARCH_MATCHES
    const kind = searchKindOf(query)
    const rows = await this.pageWhere(
      `constituents_search_${kind}_${manyMatches ? 'walk' : 'keys'}`,
      () => this.matching(sql.placeholder('organizationId'), sql.placeholder('match'), kind, manyMatches),
      { organizationId, match },
      page,
    )
    return { rows, total }
  }

  /** Every word a quoted prefix: user input never becomes FTS syntax. */
  protected matchOf(organizationId: string, query: MatchingQuery) {
    if (query.kind === 'email') return query.email
    return queryPrefixes(organizationId, query)
      .map((p) => `"${p.replace(/"/g, '""')}"*`)
      .join(' AND ')
  }

  protected matching(organizationId: SearchParameter, match: SearchParameter, kind: SearchKind, manyMatches: boolean) {
    // Few matches: they are found by an index first, then read by their seq; the unary + keeps SQLite from
    // walking the organization's rows in list order (constituents_newest) and testing each. Many matches: that
    // walk is what finds a page soonest (25 rows of a common surname among 100,000 in a few milliseconds).
    const organization = manyMatches ? sql`${c.organizationId} = ${organizationId}` : sql`+${c.organizationId} = ${organizationId}`
    const matching = (seqs: ReturnType<typeof sql>) => and(organization, sql`${c.seq} IN (${seqs})`)!
    if (kind === 'email')
      return matching(sql`SELECT seq FROM constituents WHERE organization_id = ${organizationId} AND email_key = ${match}`)
    return matching(sql`SELECT rowid FROM constituent_search WHERE constituent_search MATCH ${match}`)
  }
}
