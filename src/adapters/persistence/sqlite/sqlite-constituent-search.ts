import { and, sql, type SQL } from 'drizzle-orm'
import { ConstituentSearch, type SearchKind, type SearchParameter } from '../sql/constituent-search'
import { constituents as c } from './schema'

/**
 * SQLite: name words and phone endings in FTS5 (constituent_search, both columns: their marks keep them
 * apart), an email by its key.
 */
export class SqliteConstituentSearch extends ConstituentSearch {
  protected override async countMatches(kind: SearchKind, values: { organizationId: string; match: string }, upTo: number) {
    if (kind === 'email') return super.countMatches(kind, values, upTo)
    // A word longer than the prefix indexes reach (three letters or digits after the mark) is a prefix query
    // that FTS5 answers by first gathering the entries of every term it begins: all of a common name's. The
    // words as whole terms are lists FTS5 reads as it goes, and match fewer: when they alone reach `upTo`, so
    // does the query, and no more than `upTo` entries were read.
    const whole = await this.countInIndex(wholeTerms(values.match), upTo)
    return whole >= upTo ? whole : this.countInIndex(values.match, upTo)
  }

  /**
   * How many rows the full-text query `match` finds, reading at most `upTo`. Every term carries its
   * organization's mark, so the index's own count is the organization's.
   */
  private async countInIndex(match: string, upTo: number): Promise<number> {
    const [counted] = await this.prepared<{ n: number }>(
      'constituents_search_terms_count',
      () =>
        this.db
          .select({ n: sql<number>`count(*)` })
          .from(
            sql`(SELECT 1 FROM constituent_search WHERE constituent_search MATCH ${sql.placeholder('match')} LIMIT ${sql.placeholder('upTo')})`,
          ),
      { match, upTo },
    )
    return Number(counted?.n ?? 0)
  }

  /** Every word a quoted prefix: user input never becomes FTS syntax. */
  protected prefixesMatch(prefixes: string[]) {
    return prefixes.map((p) => `"${p.replace(/"/g, '""')}"*`).join(' AND ')
  }

  protected matching(organizationId: SearchParameter, match: SearchParameter, kind: SearchKind) {
    // The matches are found by an index first, then read by their seq; the unary + keeps SQLite from walking
    // the organization's rows in list order (constituents_newest) and testing each.
    const matching = (seqs: SQL) => and(sql`+${c.organizationId} = ${organizationId}`, sql`${c.seq} IN (${seqs})`)!
    if (kind === 'email')
      return matching(sql`SELECT seq FROM constituents WHERE organization_id = ${organizationId} AND email_key = ${match}`)
    return matching(sql`SELECT rowid FROM constituent_search WHERE constituent_search MATCH ${match}`)
  }

  protected containsTerm(text: SQL, needle: SearchParameter) {
    return sql`instr(${text}, ${needle}) > 0`
  }
}

/** The same query with each quoted prefix (`"…"*`) as a whole term (`"…"`): the words' own terms only. */
function wholeTerms(match: string): string {
  return match.replace(/"\*/g, '"')
}
