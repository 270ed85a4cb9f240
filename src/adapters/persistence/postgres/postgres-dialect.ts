import { sql, type InferInsertModel, type InferSelectModel } from 'drizzle-orm'
import type * as sqliteSchema from '../sqlite/schema'
import { driverError, type SqlDialect } from '../sql/sql-dialect'
import { IDEMPOTENCY_KEY_INDEX } from '../sql/sql-repository'
import { PostgresConstituentSearch } from './postgres-constituent-search'
import * as tables from './schema'

/** PostgreSQL's names of the unique indexes, as the `table.column` the repositories know them by. */
const UNIQUE_INDEXES: Record<string, string> = {
  organizations_slug_unique: 'organizations.slug',
  organization_slugs_pkey: 'organization_slugs.slug',
  organizations_short_code_unique: 'organizations.short_code',
  organizations_phone_number_unique: 'organizations.phone_number',
  members_email_per_organization: 'members.email',
  interactions_by_provider_message: 'interactions.provider_message_id',
  idempotency_keys_pkey: IDEMPOTENCY_KEY_INDEX,
  saved_views_name_per_member: 'saved_views.member_id, saved_views.name',
}

interface Lockable<Q> {
  for(strength: 'update' | 'no key update', config?: { skipLocked?: boolean }): Q
}

/** True when A and B are the same type, not merely assignable one to the other. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

type Sqlite = typeof sqliteSchema
type Postgres = typeof tables

/** Per table: whether PostgreSQL's rows read and write the same JS types as SQLite's (every column, nullability, defaults). */
type RowsAgree = {
  [K in keyof Sqlite | keyof Postgres]: K extends keyof Sqlite & keyof Postgres
    ? Same<InferSelectModel<Sqlite[K]>, InferSelectModel<Postgres[K]>> extends true
      ? Same<InferInsertModel<Sqlite[K]>, InferInsertModel<Postgres[K]>>
      : false
    : false
}

/**
 * Compiles only while every table of each schema has a twin in the other with the same row types (the error
 * names the table): what the cast of `tables` below relies on. The query builders themselves cannot be
 * shared (docs/architecture.md "Two databases, one repository code").
 */
export type PostgresRowsMatchSqlite = AllTrue<RowsAgree>
type AllTrue<T extends { [K in keyof T]: true }> = T

/** Drizzle's own parts this file reaches into: the session of a database or transaction, and its client. */
interface WithSession {
  _: { session: { client: unknown } }
}

/**
 * A prepared statement of drizzle's postgres-js driver holds the SQL text, its parameters and how to read
 * its rows, none of which depends on a connection, and the client it was built on (a private `client`): the
 * pool, or the connection of the transaction that first ran it. Run on another db, it is viewed with that
 * db's client in place, so one statement serves the pool and every transaction. (postgres-js prepares the
 * text on each connection of its own accord.) The contract suite checks a statement sees its transaction.
 */
function bindToSession(statement: object, db: unknown) {
  if (!('client' in statement)) throw new Error('drizzle-orm changed its postgres-js prepared query: it has no client to bind')
  return Object.create(statement, { client: { value: (db as WithSession)._.session.client } })
}

/** PostgreSQL: a GIN text-search index for search (postgres-constituent-search.ts), row locks for claims and counts, constraint names. */
export const postgresDialect: SqlDialect = {
  // Same table and column names and row types as SQLite's (PostgresRowsMatchSqlite above).
  tables: tables as unknown as typeof sqliteSchema,
  bindStatement: bindToSession,
  ConstituentSearch: PostgresConstituentSearch,
  // The trigger of migration 0017_need_reference_trigger: the organization's row is locked from the insert on.
  numbersNeeds: true,

  skipLocked: (query) => (query as unknown as Lockable<typeof query>).for('update', { skipLocked: true }),
  // NO KEY UPDATE: serializes those who lock the row, without blocking inserts that reference it.
  lockRow: (query) => (query as unknown as Lockable<typeof query>).for('no key update'),
  jsonText: (column, path) => sql`${column} #>> ${`{${path.join(',')}}`}::text[]`,

  uniqueViolation(error) {
    const failure = driverError(error)
    if (failure?.code !== '23505') return undefined
    const name = String(failure.constraint_name ?? '')
    return UNIQUE_INDEXES[name] ?? name
  },
}
