import type postgres from 'postgres'
import { driverError } from '../sql/sql-dialect'
import { inDoubt, lostInDoubt, notBegun, withinDeadline } from './unit-deadline'

// Statements outside a unit of work, through the pool (postgres-database.ts).

/**
 * Errors of a connection that was dead before the statement reached the database: a restart ends every
 * connection of the pool, and the client may find out only when it next writes to one.
 */
const DEAD_CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE', '57P01'])

export function onDeadConnection(error: unknown): boolean {
  const code = driverError(error)?.code
  return typeof code === 'string' && DEAD_CONNECTION_CODES.has(code)
}

type Settle = ((value: unknown) => unknown) | null | undefined

/** Where a statement is started: the pool, or a transaction of it. */
type Statements = Pick<postgres.Sql, 'unsafe'>

/**
 * The pool as drizzle sees it, but for two things. A statement outside a transaction that may write (all but
 * a SELECT) runs in a transaction of its own, BEGIN READ WRITE and COMMIT sent with it: the pool's sessions
 * are read-only by default (`READ_ONLY_SESSIONS`, postgres-database.ts). And a read outside a transaction that fails on a dead
 * connection runs once more, on a fresh one, so the first requests after a database restart are not refused
 * for connections the restart closed. A read may run twice; a write only when the server answered its BEGIN
 * that it was closing the connection, and otherwise a write whose connection was lost is in doubt (`lostInDoubt`).
 * Each is answered within `deadlineMs`, tries included.
 */
export function writableOutsideTransactions(client: postgres.Sql, deadlineMs: number | null): postgres.Sql {
  const unsafe = (query: string, params?: unknown[], options?: unknown) => {
    const read = /^\s*select\b/i.test(query)
    const run = (values: boolean): Promise<unknown> => (deadlineMs === null ? tries(values) : withinDeadline(tries(values), deadlineMs))
    const tries = (values: boolean): Promise<unknown> => {
      const start = (sql: Statements) => {
        const pending = sql.unsafe(query, params as never, options as never)
        return Promise.resolve(values ? pending.values() : pending)
      }
      if (!read) {
        // COMMIT goes out with it: a connection lost before the answers leaves the outcome unknown, unless the
        // server answered that it was closing the connection before BEGIN ran (then it runs once more).
        const write = () => inItsOwnTransaction(client, start)
        return write().catch((error: unknown) => {
          if (lostInDoubt(error)) throw inDoubt()
          return notBegun(error) && onDeadConnection(error) ? write() : Promise.reject(error)
        })
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
