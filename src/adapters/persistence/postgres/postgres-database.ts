import type { PgDatabase } from 'drizzle-orm/pg-core'
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
import { sqlRepositories, type SqlDb } from '../sql/sql-repositories'
import { POSTGRES_MIGRATIONS } from './migrations'
import { postgresDialect } from './postgres-dialect'
import * as schema from './schema'

/** Any number that several instances agree on: the advisory lock migrations run under. */
const MIGRATION_LOCK = 72_635_117

/**
 * Errors of a connection that was dead before the statement reached the database: a restart ends every
 * connection of the pool, and the client may find out only when it next writes to one.
 */
const DEAD_CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE', '57P01'])

function onDeadConnection(error: unknown): boolean {
  const code = driverError(error)?.code
  return typeof code === 'string' && DEAD_CONNECTION_CODES.has(code)
}

/**
 * BEGIN failed, so nothing of the transaction committed: the statements sent behind it ran on their own, its
 * reads answered, its writes refused by a read-only session. BEGIN goes out with the statements, not before
 * them (the client as patched: patches/postgres+3.4.9.patch), and its failure is marked so.
 */
function notBegun(error: unknown): boolean {
  return (error as { transactionNotBegun?: unknown } | null)?.transactionNotBegun === true
}

type Settle = ((value: unknown) => unknown) | null | undefined

/** Where a statement is started: the pool, or a transaction of it. */
type Statements = Pick<postgres.Sql, 'unsafe'>

/**
 * The pool as drizzle sees it, but for two things. A statement outside a transaction that may write (all but
 * a SELECT) runs in a transaction of its own, BEGIN READ WRITE and COMMIT sent with it: the pool's sessions
 * are read-only by default (see the constructor). And a read outside a transaction that fails on a dead
 * connection runs once more, on a fresh one, so the first requests after a database restart are not refused
 * for connections the restart closed. A read may run twice, and a write whose BEGIN met a dead connection.
 */
function writableOutsideTransactions(client: postgres.Sql): postgres.Sql {
  const unsafe = (query: string, params?: unknown[], options?: unknown) => {
    const read = /^\s*select\b/i.test(query)
    const run = (values: boolean): Promise<unknown> => {
      const start = (sql: Statements) => {
        const pending = sql.unsafe(query, params as never, options as never)
        return Promise.resolve(values ? pending.values() : pending)
      }
      if (!read) {
        // Its BEGIN met a connection a restart had closed: nothing ran, so it runs once more, on a fresh one.
        const write = () => inItsOwnTransaction(client, start)
        return write().catch((error: unknown) => (notBegun(error) && onDeadConnection(error) ? write() : Promise.reject(error)))
      }
      return start(client).catch((error: unknown) => (onDeadConnection(error) ? start(client) : Promise.reject(error)))
    }
    // postgres-js queries are lazy: they run when awaited, as rows or (values()) as arrays.
    return {
      // biome-ignore lint/suspicious/noThenProperty: a postgres-js query is a thenable drizzle awaits; this one must be too
      then: (resolve: Settle, reject: Settle) => run(false).then(resolve, reject),
      // biome-ignore lint/suspicious/noThenProperty: the same for a query read as arrays
      values: () => ({ then: (resolve: Settle, reject: Settle) => run(true).then(resolve, reject) }),
    }
  }
  return new Proxy(client, { get: (target, key, receiver) => (key === 'unsafe' ? unsafe : Reflect.get(target, key, receiver)) })
}

/** One statement in a transaction of its own, sent with BEGIN and COMMIT (one round trip); one that fails rolls it back. */
async function inItsOwnTransaction<T>(client: postgres.Sql, start: (sql: Statements) => Promise<T>): Promise<T> {
  let answer: Promise<T> | undefined
  await client.begin((sql) => {
    answer = start(sql)
    // Read below, once COMMIT (a ROLLBACK if it failed) has gone out behind it.
    answer.catch(() => {})
  })
  return answer!
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

  constructor(url: string, options: { maxConnections?: number; logger?: Logger } = {}) {
    this.logger = options.logger ?? SILENT_LOGGER
    this.client = postgres(url, {
      // At least two: migrate() holds its lock on one connection while the migration runs on another.
      max: Math.max(2, options.maxConnections ?? 10),
      connect_timeout: 5,
      idle_timeout: 60,
      // Seconds before a closed connection tries again. The client's default grows with every failed attempt
      // of the whole pool (3^n / 100, up to 20 s): after a restart under load, requests waited 13 s for a
      // database that was back. Capped at one second: refusing a connection costs the server little.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
      onnotice: () => {},
      // A transaction's statements go out behind its BEGIN unanswered (patches/postgres+3.4.9.patch): should it
      // fail, they run on their own, and a session that refuses writes unless a transaction asks for them
      // (BEGIN READ WRITE) keeps any from running outside it. Checked by `migrate`, which every start runs.
      connection: { default_transaction_read_only: true },
    })
    this.db = drizzle({ client: writableOutsideTransactions(this.client), schema })
    this.repositories = sqlRepositories(shared(this.db), postgresDialect, this.statements)
  }

  /** Applies what the database has not seen yet, one instance at a time (an advisory lock). */
  async migrate(migrations: Migration[] = POSTGRES_MIGRATIONS): Promise<MigrationOutcome> {
    // The lock is held by one reserved connection; the migration runs through the pool meanwhile.
    const connection = await this.client.reserve()
    try {
      await connection`SELECT pg_advisory_lock(${MIGRATION_LOCK})`
      await applyMigrations<Promise<void>>(this.db, migrations)
      await this.checkSessionsReadOnly()
      return {}
    } finally {
      await connection`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {})
      connection.release()
    }
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
    try {
      const result = await this.attempt(work, true).catch((error: unknown) => {
        // BEGIN failed on a connection a restart had closed, or the partners or webhook subscriptions the work
        // used as kept had changed: nothing of it committed, so it runs once more, reading them.
        if (setupChanged(error)) this.logger.debug('a unit of work runs again: partners or webhook subscriptions it had kept changed')
        else if (notBegun(error) && onDeadConnection(error)) this.logger.info('a unit of work runs again: its connection had been closed')
        else throw error
        return this.attempt(work, false)
      })
      this.writeOutage.committed()
      return result
    } catch (error) {
      this.writeOutage.failed(error)
      throw error
    }
  }

  /** One transaction of `work`, its partner and webhook reads answered from the cache when `keeping`. */
  private async attempt<T>(work: (repositories: Repositories) => Promise<T>, keeping: boolean): Promise<T> {
    const writes = new SentWrites()
    let reads: SetupReads | undefined
    try {
      const result = await this.db
        .transaction((tx) => {
          const repositories = sqlRepositories(shared(tx), postgresDialect, this.statements, writes)
          if (!keeping) return work(repositories)
          reads = this.setup.reading(repositories, new SetupVersions(this.db, this.statements, shared(tx), writes))
          return work(reads.repositories)
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
      throw error
    }
  }

  /** Whether the database answers a trivial query and writes are not failing (readiness). */
  async ping(): Promise<boolean> {
    if (this.writeOutage.failing) return false
    const rows = await this.client`SELECT 1 AS ok`
    return rows.length === 1
  }

  async databaseTime(): Promise<Date> {
    // In milliseconds: drizzle has the client hand timestamps over as text.
    const [row] = await this.client<Array<{ ms: number }>>`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`
    return new Date(row!.ms)
  }

  /** Unreachable or restarting, out of connections, memory or disk (SQLSTATE 08, 57P0x, 53): try again later. */
  outageOf(error: unknown) {
    return outageOf(error)
  }

  async close(): Promise<void> {
    await this.client.end({ timeout: 5 })
  }
}
