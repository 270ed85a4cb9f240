import type { PgDatabase } from 'drizzle-orm/pg-core'
import { drizzle, type PostgresJsDatabase, type PostgresJsQueryResultHKT } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import type { MigrationOutcome, Persistence } from '../../../application/ports/persistence'
import type { Repositories } from '../../../application/ports/repositories'
import type { UnitOfWork } from '../../../application/ports/unit-of-work'
import { applyMigrations, type Migration } from '../sql/bundled-migrations'
import { driverError } from '../sql/sql-dialect'
import { PreparedStatements } from '../sql/prepared-statements'
import { sqlRepositories, type SqlDb } from '../sql/sql-repositories'
import { POSTGRES_MIGRATIONS } from './migrations'
import { postgresDialect } from './postgres-dialect'
import * as schema from './schema'

/** Any number that several instances agree on: the advisory lock migrations run under. */
const MIGRATION_LOCK = 72_635_117

/** Errors that mean the database is away (restarting, unreachable), not that the request was wrong. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
])

/**
 * The database or a transaction as the repositories see it. Their code is written once against SQLite's
 * query-builder types, which PostgreSQL's classes cannot be typed as (docs/architecture.md "Two databases,
 * one repository code"); at run time both builders take the same calls, and the tables' row types are
 * checked equal at compile time (`PostgresRowsMatchSqlite`, postgres-dialect.ts).
 */
function shared(db: PgDatabase<PostgresJsQueryResultHKT, typeof schema>): SqlDb {
  return db as unknown as SqlDb
}

/**
 * PostgreSQL through the `postgres` client: a pool shared by requests, transactions through drizzle. The
 * client reconnects on its own, so the service survives a database restart: requests fail with 503 while it
 * is away and succeed again after.
 */
export class PostgresDatabase implements Persistence, UnitOfWork {
  readonly repositories: Repositories
  readonly unitOfWork: UnitOfWork = this
  private readonly client: postgres.Sql
  private readonly db: PostgresJsDatabase<typeof schema>
  /** Shared by the pool's repositories and every transaction's: built once, bound to where they run. */
  private readonly statements = new PreparedStatements(postgresDialect.bindStatement)

  constructor(url: string, options: { maxConnections?: number } = {}) {
    this.client = postgres(url, {
      // At least two: migrate() holds its lock on one connection while the migration runs on another.
      max: Math.max(2, options.maxConnections ?? 10),
      connect_timeout: 5,
      idle_timeout: 60,
      onnotice: () => {},
    })
    this.db = drizzle({ client: this.client, schema })
    this.repositories = sqlRepositories(shared(this.db), postgresDialect, this.statements)
  }

  /** Applies what the database has not seen yet, one instance at a time (an advisory lock). */
  async migrate(migrations: Migration[] = POSTGRES_MIGRATIONS): Promise<MigrationOutcome> {
    // The lock is held by one reserved connection; the migration runs through the pool meanwhile.
    const connection = await this.client.reserve()
    try {
      await connection`SELECT pg_advisory_lock(${MIGRATION_LOCK})`
      await applyMigrations<Promise<void>>(this.db, migrations)
      return {}
    } finally {
      await connection`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {})
      connection.release()
    }
  }

  run<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(sqlRepositories(shared(tx), postgresDialect, this.statements)))
  }

  async ping(): Promise<boolean> {
    const rows = await this.client`SELECT 1 AS ok`
    return rows.length === 1
  }

  isOutage(error: unknown): boolean {
    const code = driverError(error)?.code
    return typeof code === 'string' && OUTAGE_CODES.has(code)
  }

  async close(): Promise<void> {
    await this.client.end({ timeout: 5 })
  }
}
