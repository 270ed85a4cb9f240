import type { SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type * as schema from '../sqlite/schema'
import type { ConstituentSearch } from './constituent-search'
import type { BindStatement, PreparedStatements } from './prepared-statements'
import type { SqlDb } from './sql-repository'

/**
 * What SQLite and PostgreSQL do differently, and nothing else: the repositories (sql-repositories.ts)
 * are written once against the shared query builder and ask the dialect for these.
 */
export interface SqlDialect {
  /** The tables, with the same names, columns and JS types in both databases. */
  readonly tables: typeof schema
  /** How constituents are found through this database's search index (constituent-search.ts). */
  readonly ConstituentSearch: new (
    db: SqlDb,
    dialect: SqlDialect,
    statements: PreparedStatements,
  ) => ConstituentSearch
  /** Rows a claim takes, locked and skipping those another transaction holds (FOR UPDATE SKIP LOCKED). */
  skipLocked<Q>(query: Q): Q
  /** A row locked for the rest of the transaction (FOR UPDATE), so counts read after it stay true. */
  lockRow<Q>(query: Q): Q
  /** The text at `path` (keys, outermost first) inside a JSON column, or NULL: each database reads JSON its own way. */
  jsonText(column: SQLiteColumn, path: readonly string[]): SQL
  /** The unique index a failed write ran into, as `table.column`, or undefined for any other error. */
  uniqueViolation(error: unknown): string | undefined
  /** A prepared statement as it runs on `db`, the pool or a transaction (prepared-statements.ts). */
  bindStatement: BindStatement
  /**
   * Whether the database numbers a need inserted without a reference number itself, as the row goes in
   * (PostgreSQL's trigger); otherwise the repository takes the numbers just before the insert.
   */
  readonly numbersNeeds: boolean
}

/** The driver's own error: drizzle wraps it (DrizzleQueryError) with the query as message and it as cause. */
export function driverError(error: unknown): { code?: unknown; message?: unknown; constraint_name?: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const cause = (error as { cause?: unknown }).cause
  return (typeof cause === 'object' && cause !== null ? cause : error) as { code?: unknown }
}
