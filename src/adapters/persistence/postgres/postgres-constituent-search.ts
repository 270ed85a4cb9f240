import { and, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { ConstituentSearch, type SearchKind, type SearchParameter } from '../sql/constituent-search'
import { constituents as c } from './schema'

/**
 * PostgreSQL: name words and phone endings in a GIN text-search index over both columns (constituents_search),
 * an email by its key. A GIN index cannot stream matches in list order: up to the count's cap they are read
 * and sorted, past it the organization is walked in list order (ConstituentSearch).
 */
export class PostgresConstituentSearch extends ConstituentSearch {
  // Terms are letters and digits only (normalizeText), so quoting them cannot break the tsquery.
  protected prefixesMatch(prefixes: string[]) {
    return prefixes.map((p) => `'${p.replace(/'/g, '')}':*`).join(' & ')
  }

  protected matching(organizationId: SearchParameter, match: SearchParameter, kind: SearchKind) {
    if (kind === 'email') return and(eq(c.organizationId, organizationId), eq(c.emailKey, match))!
    // The expression of the index constituents_search: both columns, their marks keeping names and phones apart.
    const terms = sql`to_tsvector('simple', ${c.searchTerms} || ' ' || ${c.phoneTerms})`
    // The terms carry the organization's mark, so the index finds only its people; the organization is still
    // checked, on the rows found. Written as `IS TRUE` so that the planner cannot AND in an index of the whole
    // organization instead, whose reading grows with its people (3 to 11 ms at 100,000).
    return sql`(${c.organizationId} = ${organizationId}) IS TRUE AND ${terms} @@ to_tsquery('simple', ${match})`
  }

  /**
   * The people's ids as one array, read once before the index of `id` is searched by it: as a join, the planner
   * may walk that index's entries of the whole organization instead, each checked against the people.
   */
  override idOfPersonNamed(id: AnyColumn, organizationId: string, word: string) {
    return sql`${id} = ANY(ARRAY(${this.namedBy(organizationId, word)}))`
  }

  protected containsTerm(text: SQL, needle: SearchParameter) {
    return sql`strpos(${text}, ${needle}) > 0`
  }
}
