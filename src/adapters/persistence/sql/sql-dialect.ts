import type { BindStatement } from './prepared-statements'
import type { SQL } from 'drizzle-orm'
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
  /**
   * The condition that finds constituents for a query (email, phone digits, name words) through an index.
   * `manyMatches`: the query matches so many that walking the organization's constituents newest first
   * reaches a page sooner than reading every match and sorting them.
   */
  constituentSearch(organizationId: string, query: Exclude<ConstituentQuery, { kind: 'all' }>, manyMatches: boolean): SQL
  /** A query answering `n`, how many constituents match, read from the search index alone; undefined where it cannot. */
  countSearchMatches(organizationId: string, query: Exclude<ConstituentQuery, { kind: 'all' }>): SQL | undefined
  /** Rows a claim takes, locked and skipping those another transaction holds (FOR UPDATE SKIP LOCKED). */
  skipLocked<Q>(query: Q): Q
  /** A row locked for the rest of the transaction (FOR UPDATE), so counts read after it stay true. */
  lockRow<Q>(query: Q): Q
  /** The unique index a failed write ran into, as `table.column`, or undefined for any other error. */
  uniqueViolation(error: unknown): string | undefined
  /** A prepared statement as it runs on `db`, the pool or a transaction (prepared-statements.ts). */
  bindStatement: BindStatement
}

/** The driver's own error: drizzle wraps it (DrizzleQueryError) with the query as message and it as cause. */
export function driverError(error: unknown): { code?: unknown; message?: unknown; constraint_name?: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const cause = (error as { cause?: unknown }).cause
  return (typeof cause === 'object' && cause !== null ? cause : error) as { code?: unknown }
}

/** The token that confines a search to one organization. */
export function organizationToken(organizationId: string): string {
  return `o${organizationId.replace(/-/g, '')}`
}

/**
 * Every name word and phone digit string is indexed (and searched) behind this letter, which the organization
 * token never starts with: a query word such as "o" can then never prefix-match the organization token.
 */
export const TERM_MARK = 't'

/** The indexed text of a constituent: its organization's token and its marked search terms. */
export function searchTermsColumn(c: Constituent): string {
  return [organizationToken(c.organizationId), ...searchTermsOf(c).map((term) => TERM_MARK + term)].join(' ')
}

/** The marked prefixes a query looks for: its phone digits, or its words. */
export function queryPrefixes(query: Extract<ConstituentQuery, { kind: 'phone' | 'words' }>): string[] {
  return (query.kind === 'phone' ? [query.digits] : query.words).map((p) => TERM_MARK + p)
}
