import { databaseErrorCode, outageOf, UNIT_IN_DOUBT, UNIT_TIMED_OUT } from '../shared/database-errors'

/**
 * BEGIN failed, so nothing of the transaction committed: the statements sent behind it ran on their own, its
 * reads answered, its writes refused by a read-only session. BEGIN goes out with the statements, not before
 * them (the client as patched: patches/postgres+3.4.9.patch), and its failure is marked so.
 */
export function notBegun(error: unknown): boolean {
  return (error as { transactionNotBegun?: unknown } | null)?.transactionNotBegun === true
}

function deadlineError(code: typeof UNIT_TIMED_OUT | typeof UNIT_IN_DOUBT, words: string): Error {
  // No `cause`: the code is what says what happened (database-errors.ts reads a cause's code first).
  return Object.assign(new Error(words), { code })
}

/** A connection that was never made: nothing sent for it reached a server. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH'])

/**
 * Whether a failure of statements sent with their COMMIT leaves unknown what the server did: their connection
 * was lost before the answers came. BEGIN's answer is lost with the others, so its failing proves nothing ran
 * only when the server answered it (57P01, shutting down: answers come in order) or no connection took it.
 */
export function lostInDoubt(error: unknown): boolean {
  const kind = outageOf(error)
  if (kind !== 'unreachable' && kind !== 'shutdown') return false
  return !(notBegun(error) && (kind === 'shutdown' || NEVER_CONNECTED.has(databaseErrorCode(error) ?? '')))
}

/** The failure of statements whose COMMIT had gone out when their connection was lost (`lostInDoubt`). */
export function inDoubt(): Error {
  return deadlineError(UNIT_IN_DOUBT, 'the connection was lost after the unit of work asked to commit')
}

/**
 * One unit of work's deadline (DATABASE_QUERY_TIMEOUT_MS), kept by the client: a server's statement_timeout
 * cannot fire across a partition. It knows whether the unit has asked to commit, which decides what its
 * caller may be told:
 * - before COMMIT went out, the work is made to fail, so COMMIT never goes out (its transaction rolls back,
 *   or dies with its connection): nothing was changed (`timed_out`);
 * - after, the server may have committed: the outcome is in doubt (`in_doubt`), and so it is when the
 *   connection is lost after COMMIT went out.
 * The caller is answered when the deadline passes, whatever the connection does: one that stopped answering
 * is given up by the client's own timer (`query_timeout`, patches/postgres+3.4.9.patch).
 */
export class UnitDeadline {
  private committing = false
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly passed: Promise<never>

  constructor(ms: number) {
    this.passed = new Promise<never>((_, reject) => {
      this.timer = setTimeout(
        () =>
          reject(
            this.committing
              ? deadlineError(UNIT_IN_DOUBT, `the unit of work passed its deadline (${ms} ms) after it asked to commit`)
              : deadlineError(UNIT_TIMED_OUT, `the unit of work passed its deadline (${ms} ms); nothing was committed`),
          ),
        ms,
      )
    })
    this.passed.catch(() => {})
  }

  /** One attempt's work, as its transaction sees it: failed at the deadline if still running; once it resolves, COMMIT goes out. */
  guard<T>(work: Promise<T>): Promise<T> {
    this.committing = false
    return Promise.race([
      work.then((value) => {
        this.committing = true
        return value
      }),
      this.passed,
    ])
  }

  /** The attempts' outcome, or the deadline's error as soon as it passes. */
  bound<T>(attempts: Promise<T>): Promise<T> {
    // Settled later, if ever, once nobody waits for it.
    attempts.catch(() => {})
    return Promise.race([attempts, this.passed])
  }

  /** An attempt's failure as its caller must hear it: a connection lost after COMMIT went out leaves the outcome unknown. */
  failure(error: unknown): unknown {
    return this.committing && lostInDoubt(error) ? inDoubt() : error
  }

  clear(): void {
    clearTimeout(this.timer)
  }
}

/**
 * A statement outside a unit of work, answered by its deadline whatever its connection does: waiting for a
 * connection to open, or on one that stopped answering, fails as the database not answering (503).
 */
export function withinDeadline<T>(statement: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer from the database within ${ms} ms`), { code: 'QUERY_TIMEOUT' })), ms)
  })
  statement.catch(() => {})
  return Promise.race([statement, passed]).finally(() => clearTimeout(timer))
}
