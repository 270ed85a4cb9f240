import { and, count, desc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { Constituent } from '../../../domain/constituents/constituent'
import { isDigitWord, nameTermsOf, phoneTermsOf, type ConstituentQuery } from '../../../domain/constituents/search'
import { boundedTotal, countCap, offsetOf, type Keyset, type Page, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { afterKeyset, SqlRepository } from './sql-repository'

export type ConstituentRow = typeof schema.constituents.$inferSelect
/** A query that looks for something: by the search index, each database its own way. */
export type MatchingQuery = Exclude<ConstituentQuery, { kind: 'all' }>
/** An email is looked up by its key; words and phone digits in the full-text index. */
export type SearchKind = 'email' | 'terms'

export function searchKindOf(query: MatchingQuery): SearchKind {
  return query.kind === 'email' ? 'email' : 'terms'
}

/**
 * How a database finds an organization's constituents
 * (docs/performance/bounds.md "Constituent search"): a page in
 * list order with its total, and an export's batches. Everyone is read alike on both databases: a page by the
 * list's index, the total from constituent_counts (kept by triggers), so neither grows with the organization.
 * A query's matches are counted up to a cap (`countCap`), each database in its own index. Up to the cap the
 * page is read by key and sorted: at most the cap's rows. Past it the page is read by walking the
 * organization's constituents newest first and testing each one's own terms, stopping at the page: a common
 * name, one person in forty, is found in about forty rows a match, whatever the size of the organization.
 * Statements are prepared, one per kind of query and way of reading the page, as building them cost more than
 * running them; the organization and what is looked for are bound per request.
 */
export abstract class ConstituentSearch extends SqlRepository {
  async page(
    organizationId: string,
    query: ConstituentQuery,
    page: PageRequest,
    countUpTo: number,
  ): Promise<{ rows: ConstituentRow[] } & Pick<Page<unknown>, 'total' | 'totalIsLowerBound'>> {
    if (query.kind !== 'all') return this.pageOfMatches(organizationId, query, page, countUpTo)
    const counts = this.tables.constituentCounts
    const rows = await this.pageWhere(
      'constituents_page',
      () => eq(this.tables.constituents.organizationId, sql.placeholder('organizationId')),
      { organizationId },
      page,
    )
    const [counted] = await this.prepared<{ n: number }>(
      'constituents_total',
      () =>
        this.db
          .select({ n: counts.constituents })
          .from(counts)
          .where(eq(counts.organizationId, sql.placeholder('organizationId'))),
      { organizationId },
    )
    return { rows, total: Number(counted?.n ?? 0) }
  }

  /** An export's batch by keyset (as the needs'); a query reads its matches through the index for each batch. */
  batchAfter(organizationId: string, query: ConstituentQuery, after: Keyset | undefined, limit: number): Promise<ConstituentRow[]> {
    const t = this.tables.constituents
    const matching =
      query.kind === 'all'
        ? eq(t.organizationId, organizationId)
        : this.matching(organizationId, this.matchOf(organizationId, query), searchKindOf(query))
    return this.db
      .select()
      .from(t)
      .where(and(matching, afterKeyset(t, after)))
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(limit)
  }

  private async pageOfMatches(organizationId: string, query: MatchingQuery, page: PageRequest, countUpTo: number) {
    const kind = searchKindOf(query)
    const values = { organizationId, match: this.matchOf(organizationId, query) }
    const cap = countCap(page, countUpTo)
    const counted = await this.countMatches(kind, values, cap + 1)
    const total = boundedTotal(counted, cap)
    if (counted === 0) return { rows: [], ...total }
    // An email is one person's, or a handful's: always read by key.
    if (!total.totalIsLowerBound || query.kind === 'email') {
      const condition = () => this.matching(sql.placeholder('organizationId'), sql.placeholder('match'), kind)
      return { rows: await this.pageWhere(`constituents_search_${kind}_keys`, condition, values, page), ...total }
    }
    return { rows: await this.walk(organizationId, query, page), ...total }
  }

  /**
   * How many of the organization's constituents match, reading at most `upTo` of them; `values` bind
   * `matching`'s placeholders. SQLite counts words and phone digits in its full-text index alone.
   */
  protected async countMatches(kind: SearchKind, values: { organizationId: string; match: string }, upTo: number): Promise<number> {
    const [counted] = await this.prepared<{ n: number }>(
      `constituents_search_${kind}_count`,
      () => {
        const matches = this.db
          .select({ one: sql`1` })
          .from(this.tables.constituents)
          .where(this.matching(sql.placeholder('organizationId'), sql.placeholder('match'), kind))
          .limit(sql.placeholder('upTo'))
        return this.db.select({ n: count() }).from(matches.as('matches'))
      },
      { ...values, upTo },
    )
    return Number(counted?.n ?? 0)
  }

  /**
   * A page of a query of many matches: the organization's constituents in list order (constituents_newest),
   * each kept when every word begins one of its own terms (`containsTerm`), until the page is full. Prepared
   * per number of name words and of phone words.
   */
  private walk(organizationId: string, query: Extract<MatchingQuery, { kind: 'phone' | 'words' }>, page: PageRequest) {
    const t = this.tables.constituents
    const terms = queryTerms(organizationId, query)
    const names = terms.filter((term) => term.column === 'searchTerms').length
    // A term begins the column, or follows a space: the needle carries that space.
    const values = Object.fromEntries(terms.map((term, i) => [`term${i}`, ` ${term.prefix}`]))
    const condition = () =>
      and(
        eq(t.organizationId, sql.placeholder('organizationId')),
        ...terms.map((term, i) => this.containsTerm(sql`' ' || ${t[term.column]}`, sql.placeholder(`term${i}`))),
      )
    return this.pageWhere(`constituents_search_walk_${names}_${terms.length - names}`, condition, { organizationId, ...values }, page)
  }

  /**
   * The ids of the organization's people with a word of their names that `word` begins, found through the
   * search index as a query of words is: need search's person on file (docs/api/needs.md "Search and sort").
   */
  namedBy(organizationId: string, word: string) {
    const c = this.tables.constituents
    const match = this.prefixesMatch([organizationMark(organizationId, 'words') + word])
    return this.db
      .select({ id: c.id })
      .from(c)
      .where(this.matching(organizationId, match, 'terms'))
  }

  /**
   * `id` is one of the people `namedBy` finds, written for an index that leads with it: the people found
   * first, then each one's entries. (SQLite reads an `IN` list so; PostgreSQL's override says it.)
   */
  idOfPersonNamed(id: AnyColumn, organizationId: string, word: string): SQL {
    return inArray(id, this.namedBy(organizationId, word))
  }

  /** What a query looks for, as its index reads it: full-text query text for words and phone digits, the key of an email. */
  protected matchOf(organizationId: string, query: MatchingQuery): string {
    return query.kind === 'email' ? query.email : this.prefixesMatch(queryPrefixes(organizationId, query))
  }

  /** The full-text query text that finds the terms every one of the marked `prefixes` begins. */
  protected abstract prefixesMatch(prefixes: string[]): string

  /**
   * The condition that finds the organization's constituents matching `match` (matchOf's answer) by key,
   * through an index. Both are values, or placeholders of a prepared search.
   */
  protected abstract matching(organizationId: SearchParameter, match: SearchParameter, kind: SearchKind): SQL

  /** Whether `text` holds `needle`, tested on the row at hand: no index can serve it, so a walk stays a walk. */
  protected abstract containsTerm(text: SQL, needle: SearchParameter): SQL

  /** A page in list order, prepared as `name`; `values` bind the placeholders of `where`. */
  protected pageWhere(
    name: string,
    where: () => SQL | undefined,
    values: Record<string, unknown>,
    page: PageRequest,
  ): Promise<ConstituentRow[]> {
    const t = this.tables.constituents
    return this.prepared<ConstituentRow>(
      name,
      () =>
        this.db
          .select()
          .from(t)
          .where(where())
          .orderBy(desc(t.createdAt), desc(t.id))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset')),
      { ...values, limit: page.limit, offset: offsetOf(page) },
    )
  }
}

/** A value of a search's condition, or the placeholder a prepared search binds it to. */
export type SearchParameter = string | ReturnType<typeof sql.placeholder>

/**
 * Every indexed term carries its organization and what it is: `o<the organization's id, hex>t<word>` for a
 * name's word, `o<…>p<digits>` for a phone's. A search then reads only its own organization's entries of
 * its kind in the index (an organization's token ANDed with the words read every organization's matches of
 * the words first). The leading letter keeps PostgreSQL's parser from reading a mark such as `4109e877…` as
 * a number; the last one ends the mark. The mark is 34 characters long, and SQLite's prefix indexes (35, 36
 * and 37 characters) hold a term's first one to three letters or digits.
 */
function organizationMark(organizationId: string, kind: 'words' | 'phone'): string {
  return `o${organizationId.replace(/-/g, '')}${kind === 'words' ? 't' : 'p'}`
}

/** The indexed text of a constituent's names (`search_terms`): each word behind its organization's mark. */
export function searchTermsColumn(c: Constituent): string {
  const mark = organizationMark(c.organizationId, 'words')
  return nameTermsOf(c)
    .map((term) => mark + term)
    .join(' ')
}

/** The indexed text of a constituent's phone (`phone_terms`): each ending of its digits behind the mark. */
export function phoneTermsColumn(c: Constituent): string {
  const mark = organizationMark(c.organizationId, 'phone')
  return phoneTermsOf(c)
    .map((term) => mark + term)
    .join(' ')
}

/**
 * The marked prefixes a query looks for in the organization, each with the column holding its terms: its
 * phone digits, or its words (a word of digits among the phone's). Names first, then phones.
 */
export function queryTerms(
  organizationId: string,
  query: Extract<ConstituentQuery, { kind: 'phone' | 'words' }>,
): Array<{ column: 'searchTerms' | 'phoneTerms'; prefix: string }> {
  const words = query.kind === 'phone' ? [query.digits] : query.words
  const terms = words.map((word) =>
    isDigitWord(word)
      ? { column: 'phoneTerms' as const, prefix: organizationMark(organizationId, 'phone') + word }
      : { column: 'searchTerms' as const, prefix: organizationMark(organizationId, 'words') + word },
  )
  return [...terms.filter((term) => term.column === 'searchTerms'), ...terms.filter((term) => term.column === 'phoneTerms')]
}

/** The marked prefixes a query looks for (queryTerms), as the full-text indexes read them. */
export function queryPrefixes(organizationId: string, query: Extract<ConstituentQuery, { kind: 'phone' | 'words' }>): string[] {
  return queryTerms(organizationId, query).map((term) => term.prefix)
}
