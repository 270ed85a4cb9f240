import type { PgDatabase } from 'drizzle-orm/pg-core'
import { PostgresLiveEventFeed } from './postgres-live-event-feed'
import { drizzle, type PostgresJsDatabase, type PostgresJsQueryResultHKT } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import type { MigrationOutcome, Persistence } from '../../../application/ports/persistence'
import type { Repositories } from '../../../application/ports/repositories'
import type { UnitOfWork } from '../../../application/ports/unit-of-work'
import { SILENT_LOGGER, type Logger } from '../../../application/ports/logger'
import { applyMigrations, type Migration } from '../sql/bundled-migrations'
import { driverError } from '../sql/sql-dialect'
import { outageOf } from '../shared/database-errors'
import { WriteOutage } from '../shared/write-outage'
import { PreparedStatements } from '../sql/prepared-statements'
import { SentWrites } from './sent-writes'
import { SetupCache, type SetupReads } from './setup-cache'
import { setupChanged, SetupVersions } from './setup-versions'
import { notBegun, UnitDeadline, withinDeadline } from './unit-deadline'
import { onDeadConnection, writableOutsideTransactions } from './pool-statements'
import { sqlRepositories, type SqlDb } from '../sql/sql-repositories'
import { POSTGRES_MIGRATIONS } from './migrations'
import { postgresDialect } from './postgres-dialect'
import * as schema from './schema'

/** Any number that several instances agree on: the advisory lock migrations run under. */
const MIGRATION_LOCK = 72_635_117

/**
 * A transaction's statements go out behind its BEGIN unanswered (patches/postgres+3.4.9.patch): should it fail,
 * they run on their own, and a session that refuses writes unless a transaction asks for them (BEGIN READ
 * WRITE) keeps any from running outside it. Checked by `migrate`, which every start runs.
 */
const READ_ONLY_SESSIONS = { default_transaction_read_only: true }

/** DATABASE_QUERY_TIMEOUT_MS's default. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000

export interface PostgresOptions {
  maxConnections?: number
  logger?: Logger
  /** The deadline of a unit of work, and of a statement outside one (DATABASE_QUERY_TIMEOUT_MS). */
  queryTimeoutMs?: number
}

/**
 * BEGIN READ WRITE refused with 0A000 ("cannot set transaction read-write mode during recovery"): the server is a
 * standby, which the 503 of a read-only server (25006) says.
 */
function refusedForRecovery(error: unknown): unknown {
  if (!notBegun(error) || driverError(error)?.code !== '0A000') return error
  return Object.assign(new Error('the server cannot take writes: it is in recovery'), { code: '25006', transactionNotBegun: true })
}

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
 * PostgreSQL through the `postgres` client: a pool shared by requests, transactions through drizzle, their
 * BEGIN sent with their statements (`notBegun`) and their writes nobody reads sent on without waiting (`SentWrites`). The client reconnects on its own, so the service survives a database restart: requests fail with 503 while it
 * is away and succeed again after.
 */
export class PostgresDatabase implements Persistence, UnitOfWork {
  readonly repositories: Repositories
  readonly unitOfWork: UnitOfWork = this
  private readonly client: postgres.Sql
  private readonly db: PostgresJsDatabase<typeof schema>
  /** Shared by the pool's repositories and every transaction's: built once, bound to where they run. */
  private readonly statements = new PreparedStatements(postgresDialect.bindStatement)
  private readonly writeOutage = new WriteOutage()
  /** Partners and webhook subscriptions as read, checked by each transaction that uses them (setup-cache.ts). */
  private readonly setup = new SetupCache()

  private readonly logger: Logger
  /** DATABASE_QUERY_TIMEOUT_MS: what a unit of work, or a statement outside one, may take. */
  private readonly queryTimeoutMs: number

  constructor(
    private readonly url: string,
    options: PostgresOptions = {},
  ) {
    this.logger = options.logger ?? SILENT_LOGGER
    this.queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS
    // At least two: a transaction waiting on a row another holds still leaves one for what would free it.
    this.client = postgres(url, { ...this.clientOptions(), max: Math.max(2, options.maxConnections ?? 10) })
    this.db = drizzle({ client: writableOutsideTransactions(this.client, this.queryTimeoutMs), schema })
    this.repositories = sqlRepositories(shared(this.db), postgresDialect, this.statements)
  }

  /** How the service's sessions are opened, for the pool and for migrations alike. */
  private clientOptions() {
    return {
      connect_timeout: 5,
      // A standby, or a server not yet promoted, is refused as the connection opens (judged by the server's
      // in_hot_standby, pg_is_in_recovery() before PostgreSQL 14): requests fail 503 until a primary answers,
      // and a DATABASE_URL naming several hosts reaches whichever is the primary (docs/deploy.md "Failover").
      target_session_attrs: 'primary' as const,
      // Every statement's answer within the deadline, or its connection is given up: a partition is noticed by
      // the client, not left to the kernel's keepalive (minutes).
      query_timeout: this.queryTimeoutMs / 1000,
      idle_timeout: 60,
      // Seconds before a closed connection tries again. The client's default grows with every failed attempt
      // of the whole pool (3^n / 100, up to 20 s): after a restart under load, requests waited 13 s for a
      // database that was back. Capped at one second: refusing a connection costs the server little.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
      onnotice: () => {},
      connection: {
        ...READ_ONLY_SESSIONS,
        ...this.serverDeadline(),
      },
    }
  }

  /**
   * The server's side of the deadline: a transaction whose client went silent (a partition, a client that
   * gave up) is ended and its row locks freed, and the server's keepalive probes find a vanished client
   * within the deadline, instead of the kernel's two hours. (The client's own probes cannot be tuned past
   * their first delay from Bun; its `query_timeout` notices a dead server instead.)
   */
  private serverDeadline() {
    const seconds = Math.max(1, Math.floor(this.queryTimeoutMs / 2000))
    return {
      idle_in_transaction_session_timeout: this.queryTimeoutMs,
      tcp_keepalives_idle: seconds,
      tcp_keepalives_interval: Math.max(1, Math.floor(seconds / 3)),
      tcp_keepalives_count: 3,
    }
  }

  /**
   * Applies what the database has not seen yet, one instance at a time (an advisory lock), on connections of
   * its own without the deadline: waiting for another instance's migration, or building an index over a large
   * table, may take minutes.
   */
  async migrate(migrations: Migration[] = POSTGRES_MIGRATIONS): Promise<MigrationOutcome> {
    const client = postgres(this.url, { ...this.clientOptions(), max: 2, query_timeout: null, connection: READ_ONLY_SESSIONS })
    try {
      // The lock is held by one reserved connection; the migration runs on the other meanwhile.
      const connection = await client.reserve()
      try {
        await connection`SELECT pg_advisory_lock(${MIGRATION_LOCK})`
        await applyMigrations<Promise<void>>(drizzle({ client: writableOutsideTransactions(client, null), schema }), migrations)
      } finally {
        await connection`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {})
        connection.release()
      }
    } finally {
      await client.end({ timeout: 5 })
    }
    await this.checkSessionsReadOnly()
    return {}
  }

  /**
   * Refuses to go on over sessions that would let a write run outside its transaction: the startup parameter
   * asking for read-only sessions was dropped on the way (a pooler told to ignore it).
   */
  private async checkSessionsReadOnly(): Promise<void> {
    const [row] = await this.client<Array<{ default_transaction_read_only: string }>>`SHOW default_transaction_read_only`
    if (row?.default_transaction_read_only === 'on') return
    throw new Error(
      'PostgreSQL sessions are not read-only by default: the service asks for it as it connects (default_transaction_read_only), and something on the way dropped it, such as a pooler\'s ignore_startup_parameters. Set it on the server for the service\'s role: ALTER ROLE <role> IN DATABASE <database> SET default_transaction_read_only = on (docs/deploy.md, "A pooler in front").',
    )
  }

  async run<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    const deadline = new UnitDeadline(this.queryTimeoutMs)
    try {
      const result = await deadline.bound(
        this.attempt(work, true, deadline).catch((error: unknown) => {
          // BEGIN failed on a connection a restart had closed, or the partners or webhook subscriptions the work
          // used as kept had changed: nothing of it committed, so it runs once more, reading them.
          if (setupChanged(error)) this.logger.debug('a unit of work runs again: partners or webhook subscriptions it had kept changed')
          else if (notBegun(error) && onDeadConnection(error)) this.logger.info('a unit of work runs again: its connection had been closed')
          else throw error
          return this.attempt(work, false, deadline)
        }),
      )
      this.writeOutage.committed()
      return result
    } catch (error) {
      this.writeOutage.failed(error)
      throw error
    } finally {
      deadline.clear()
    }
  }

  /** One transaction of `work`, its partner and webhook reads answered from the cache when `keeping`. */
  private async attempt<T>(work: (repositories: Repositories) => Promise<T>, keeping: boolean, deadline: UnitDeadline): Promise<T> {
    const writes = new SentWrites()
    let reads: SetupReads | undefined
    try {
      const result = await this.db
        .transaction((tx) => {
          const repositories = sqlRepositories(shared(tx), postgresDialect, this.statements, writes)
          if (!keeping) return deadline.guard(work(repositories))
          reads = this.setup.reading(repositories, new SetupVersions(this.db, this.statements, shared(tx), writes))
          return deadline.guard(work(reads.repositories))
        })
        .catch(async (error: unknown) =>
          // A write behind a BEGIN that failed was refused for it: the failed BEGIN is the cause.
          Promise.reject(notBegun(error) ? error : ((await writes.firstFailure())?.error ?? error)),
        )
      // COMMIT went out behind the writes still on their way: one that failed had it roll back.
      const failed = await writes.firstFailure()
      if (failed) throw failed.error
      reads?.committed()
      return result
    } catch (error) {
      if (reads && setupChanged(error)) this.setup.forget(reads.used)
      throw deadline.failure(refusedForRecovery(error))
    }
  }

  /** Whether the database answers, can take writes (a primary), and writes are not failing (readiness). */
  async ping(): Promise<boolean> {
    if (this.writeOutage.failing) return false
    const [row] = await withinDeadline(
      this.client<Array<{ recovering: boolean }>>`SELECT pg_is_in_recovery() AS recovering`,
      this.queryTimeoutMs,
    )
    return row?.recovering === false
  }

  async databaseTime(): Promise<Date> {
    // In milliseconds: drizzle has the client hand timestamps over as text.
    const [row] = await this.client<Array<{ ms: number }>>`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`
    return new Date(row!.ms)
  }

  /** Unreachable or restarting, out of connections, memory or disk (SQLSTATE 08, 57P0x, 53): try again later. */
  liveEventFeed() {
    return new PostgresLiveEventFeed(this.client, this.repositories.liveEvents)
  }

  outageOf(error: unknown) {
    return outageOf(error)
  }

  async close(): Promise<void> {
    await this.client.end({ timeout: 5 })
  }
}
