import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { Constituent } from '../../../domain/constituents/constituent'
import { isDigitWord, nameTermsOf, phoneTermsOf, type ConstituentQuery } from '../../../domain/constituents/search'
import { offsetOf, type Keyset, type PageRequest } from '../../../domain/shared/page'
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
 * How a database finds an organization's constituents (docs/performance.md "Constituent search"): a page in
 * list order with its total, and an export's batches. Everyone is read alike on both databases: a page by the
 * list's index, the total from constituent_counts (kept by triggers), so neither grows with the organization.
 * A query reads its database's own index: each dialect has its subclass. Its statements are prepared, one per
 * kind of query and way of reading the page, as building them cost more than running them; the organization
 * and what is looked for are bound per request.
 */
export abstract class ConstituentSearch extends SqlRepository {
  async page(organizationId: string, query: ConstituentQuery, page: PageRequest): Promise<{ rows: ConstituentRow[]; total: number }> {
    if (query.kind !== 'all') return this.pageOfMatches(organizationId, query, page)
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
        : this.matching(organizationId, this.matchOf(organizationId, query), searchKindOf(query), false)
    return this.db
      .select()
      .from(t)
      .where(and(matching, afterKeyset(t, after)))
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(limit)
  }

  /** The page of a query's matches and how many there are. */
  protected abstract pageOfMatches(
    organizationId: string,
    query: MatchingQuery,
    page: PageRequest,
  ): Promise<{ rows: ConstituentRow[]; total: number }>

  /** What a query looks for, as its index reads it: full-text query text for words and phone digits, the key of an email. */
  protected abstract matchOf(organizationId: string, query: MatchingQuery): string

  /**
   * The condition that finds the organization's constituents matching `match` (matchOf's answer) through an
   * index. Both are values, or placeholders of a prepared search. `manyMatches`: the query matches so many
   * that walking the organization's constituents newest first reaches a page sooner than reading every match
   * and sorting them.
   */
  protected abstract matching(organizationId: SearchParameter, match: SearchParameter, kind: SearchKind, manyMatches: boolean): SQL

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

  /** The page of matches read by key and sorted, and their number counted by the same condition, both prepared. */
  protected async pageAndCount(
    organizationId: string,
    query: MatchingQuery,
    page: PageRequest,
  ): Promise<{ rows: ConstituentRow[]; total: number }> {
    const kind = searchKindOf(query)
    const values = { organizationId, match: this.matchOf(organizationId, query) }
    const condition = () => this.matching(sql.placeholder('organizationId'), sql.placeholder('match'), kind, false)
    const rows = await this.pageWhere(`constituents_search_${kind}_keys`, condition, values, page)
    const [counted] = await this.prepared<{ n: number }>(
      `constituents_search_${kind}_count`,
      () => this.db.select({ n: count() }).from(this.tables.constituents).where(condition()),
      values,
    )
    return { rows, total: Number(counted?.n ?? 0) }
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

/** The marked prefixes a query looks for in the organization: its phone digits, or its words (a word of digits among the phone's). */
export function queryPrefixes(organizationId: string, query: Extract<ConstituentQuery, { kind: 'phone' | 'words' }>): string[] {
  const words = query.kind === 'phone' ? [query.digits] : query.words
  return words.map((word) => organizationMark(organizationId, isDigitWord(word) ? 'phone' : 'words') + word)
}
