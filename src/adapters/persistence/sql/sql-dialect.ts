import type { BindStatement } from './prepared-statements'
import type { Placeholder, SQL } from 'drizzle-orm'
import type { Constituent } from '../../../domain/constituents/constituent'
import { searchTermsOf, type ConstituentQuery } from '../../../domain/constituents/search'
import type * as schema from '../sqlite/schema'

/**
 * What SQLite and PostgreSQL do differently, and nothing else: the repositories (sql-repositories.ts)
 * are written once against the shared query builder and ask the dialect for these.
 */
export interface SqlDialect {
  /** The tables, with the same names, columns and JS types in both databases. */
  readonly tables: typeof schema
  /** What a search looks for, as its index reads it: full-text query text for words and phone digits, the key of an email. */
  searchMatch(organizationId: string, query: Exclude<ConstituentQuery, { kind: 'all' }>): string
  /**
   * The condition that finds the organization's constituents matching `match` (searchMatch's answer) through
   * an index. Both are values, or placeholders of a prepared search. `manyMatches`: the query matches so many
   * that walking the organization's constituents newest first reaches a page sooner than reading every match
   * and sorting them.
   */
  constituentSearch(organizationId: SearchParameter, match: SearchParameter, kind: SearchKind, manyMatches: boolean): SQL
  /** A query answering `n`, how many constituents match, read from the search index alone; undefined where it cannot. */
  countSearchMatches(match: string, kind: SearchKind): SQL | undefined
  /** Rows a claim takes, locked and skipping those another transaction holds (FOR UPDATE SKIP LOCKED). */
  skipLocked<Q>(query: Q): Q
  /** A row locked for the rest of the transaction (FOR UPDATE), so counts read after it stay true. */
  lockRow<Q>(query: Q): Q
  /** The unique index a failed write ran into, as `table.column`, or undefined for any other error. */
  uniqueViolation(error: unknown): string | undefined
  /** A prepared statement as it runs on `db`, the pool or a transaction (prepared-statements.ts). */
  bindStatement: BindStatement
}

/** An email is looked up by its key; words and phone digits in the full-text index. */
export type SearchKind = 'email' | 'terms'

/** A value of a search's condition, or the placeholder a prepared search binds it to. */
export type SearchParameter = string | Placeholder

export function searchKindOf(query: Exclude<ConstituentQuery, { kind: 'all' }>): SearchKind {
  return query.kind === 'email' ? 'email' : 'terms'
}

/** The driver's own error: drizzle wraps it (DrizzleQueryError) with the query as message and it as cause. */
export function driverError(error: unknown): { code?: unknown; message?: unknown; constraint_name?: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const cause = (error as { cause?: unknown }).cause
  return (typeof cause === 'object' && cause !== null ? cause : error) as { code?: unknown }
}

/**
 * Every indexed term carries its organization: `o<the organization's id, hex>t<word>`. A search then reads
 * only its own organization's entries in the index (an organization's token ANDed with the words read
 * every organization's matches of the words first). The leading letter keeps PostgreSQL's parser from
 * reading a mark such as `4109e877…` as a number; the `t` ends the mark. The mark is 34 characters long,
 * and SQLite's prefix indexes (35, 36 and 37 characters) hold a word's first one to three letters.
 */
function organizationMark(organizationId: string): string {
  return `o${organizationId.replace(/-/g, '')}t`
}

/** The indexed text of a constituent: its name words and phone digits, each behind its organization's mark. */
export function searchTermsColumn(c: Constituent): string {
  const mark = organizationMark(c.organizationId)
  return searchTermsOf(c)
    .map((term) => mark + term)
    .join(' ')
}

/** The marked prefixes a query looks for in the organization: its phone digits, or its words. */
export function queryPrefixes(organizationId: string, query: Extract<ConstituentQuery, { kind: 'phone' | 'words' }>): string[] {
  const mark = organizationMark(organizationId)
  return (query.kind === 'phone' ? [query.digits] : query.words).map((p) => mark + p)
}
