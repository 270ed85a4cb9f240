import type { PgDatabase, PgDialect } from 'drizzle-orm/pg-core'
import { PostgresJsDatabase, PostgresJsSession, type PostgresJsQueryResultHKT } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { UnreadWrites } from '../sql/unread-writes'

/** The transaction as drizzle's query builder sees it. */
export type TransactionDb = PgDatabase<PostgresJsQueryResultHKT>

/**
 * The writes of one transaction whose results nobody reads, as they were sent, and how each ended. The
 * server answers statements in the order they were sent, so when one fails, those after it fail only
 * because it did (SQLSTATE 25P02, "current transaction is aborted"): the first failure is the cause.
 */
class SentWrites implements UnreadWrites {
  private readonly settled: Array<Promise<void>> = []
  private readonly failures: unknown[] = []

  send(write: PromiseLike<unknown>): Promise<void> {
    const at = this.settled.length
    this.settled.push(
      // then() at once: a postgres-js query goes out when asked for its result, and must go out now.
      Promise.resolve(
        write.then(
          () => {},
          (error: unknown) => {
            this.failures[at] = error
          },
        ),
      ),
    )
    return Promise.resolve()
  }

  /** The first write (in the order sent) that failed, once every write sent has been answered. */
  async firstFailure(): Promise<{ at: number; error: unknown } | undefined> {
    await Promise.all(this.settled)
    const at = this.failures.findIndex((_, i) => i in this.failures)
    return at === -1 ? undefined : { at, error: this.failures[at] }
  }
}

/**
 * Runs `work` in one transaction (the client's `begin`, on a connection of its own), in as few round trips
 * as it allows: each write whose result nobody reads (`UnreadWrites`) goes out with the statements after it,
 * and COMMIT with the last writes. A create of a need reads what it must (its partner, the next reference
 * number, the webhook endpoints) and sends the rest with COMMIT.
 *
 * All or nothing as before: a failed statement aborts the transaction, so COMMIT rolls it back. The unit then
 * fails with the first failure in the order sent, as its repository reported it (a unique index is the same
 * 409), not with the aborted statements after it. When the transaction cannot even begin on a connection a
 * database restart closed, nothing reached the database, and the whole work runs once more on a fresh
 * connection (`deadConnection`). The client's `begin`, not a connection reserved by hand: it is the path
 * whose connection, lost in a restart, goes back to the pool whole (a reserved one left instances that
 * would not shut down).
 */
export async function pipelinedTransaction<T>(
  client: postgres.Sql,
  dialect: PgDialect,
  work: (db: TransactionDb, writes: UnreadWrites) => Promise<T>,
  deadConnection: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await attempt(client, dialect, work)
  } catch (error) {
    if (!(error instanceof BeginFailed) || !deadConnection(error.cause)) throw unwrapped(error)
    return await attempt(client, dialect, work).catch((again: unknown) => Promise.reject(unwrapped(again)))
  }
}

/** The transaction's failure before its work began, told apart from the work's so that only it is tried again. */
class BeginFailed extends Error {}

function unwrapped(error: unknown): unknown {
  return error instanceof BeginFailed ? error.cause : error
}

async function attempt<T>(
  client: postgres.Sql,
  dialect: PgDialect,
  work: (db: TransactionDb, writes: UnreadWrites) => Promise<T>,
): Promise<T> {
  const writes = new SentWrites()
  let began = false
  let result: T | undefined
  try {
    await client.begin(async (tx) => {
      began = true
      const db = new PostgresJsDatabase(dialect, new PostgresJsSession(tx as unknown as postgres.Sql, dialect, undefined), undefined)
      result = await work(db, writes)
      // The writes nobody reads may still be on their way: COMMIT goes out behind them, and the server
      // answers in order, so a failed one has aborted the transaction and COMMIT rolls it back.
    })
  } catch (error) {
    if (!began) throw new BeginFailed('BEGIN failed', { cause: error })
    throw (await writes.firstFailure())?.error ?? error
  }
  const failed = await writes.firstFailure()
  if (failed) throw failed.error
  return result as T
}
