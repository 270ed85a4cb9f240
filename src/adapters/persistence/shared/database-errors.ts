import type { DatabaseOutageKind } from '../../../application/ports/persistence'
import { driverError } from '../sql/sql-dialect'

/**
 * What a driver's error means, for SQLite (bun:sqlite's extended result code names, `SQLITE_FULL`) and
 * PostgreSQL (the `postgres` client's SQLSTATE, `53300`, or its connection codes, `CONNECTION_CLOSED`) alike:
 * an outage the caller may retry later (503), or the database refusing this statement (a bug, or a rule
 * the input broke).
 */
export type DatabaseErrorClass = { kind: DatabaseOutageKind; retryable: true } | { kind: 'refused'; retryable: false }

/** The connection was refused, lost or timed out before an answer (client codes, SQLSTATE class 08). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // The client gave up on a connection that stopped answering (a partition): patches/postgres+3.4.9.patch.
  'QUERY_TIMEOUT',
])

/** A unit of work's deadline, before and after it asked to commit (unit-deadline.ts). */
export const UNIT_TIMED_OUT = 'UNIT_TIMED_OUT'
export const UNIT_IN_DOUBT = 'UNIT_IN_DOUBT'

function outageKindOf(code: string): DatabaseOutageKind | undefined {
  if (UNREACHABLE.has(code) || code.startsWith('08')) return 'unreachable'
  // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 57P04 database_dropped, 57P05 idle_session_timeout.
  if (/^57P0\d$/.test(code)) return 'shutdown'
  // 25006 read_only_sql_transaction: a standby, or a server failing over.
  if (code === '25006') return 'read_only'
  if (code === UNIT_TIMED_OUT) return 'timed_out'
  if (code === UNIT_IN_DOUBT) return 'in_doubt'
  if (code === '53300') return 'too_many_connections'
  if (code === '53100' || code.startsWith('SQLITE_FULL')) return 'disk_full'
  if (code.startsWith('53') || code.startsWith('SQLITE_NOMEM')) return 'out_of_resources'
  if (code.startsWith('SQLITE_IOERR')) return 'io_error'
  // 40001 serialization_failure, 40P01 deadlock_detected, 55P03 lock_not_available: tried again, they pass.
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === '40001' || code === '40P01' || code === '55P03')
    return 'busy'
  return undefined
}

/** The driver's code of an error (unwrapping drizzle's), or undefined for an error no database raised. */
export function databaseErrorCode(error: unknown): string | undefined {
  const code = driverError(error)?.code
  return typeof code === 'string' && code.length > 0 ? code : undefined
}

/** An error's class, or undefined for an error that carries no driver code. */
export function classifyDatabaseError(error: unknown): DatabaseErrorClass | undefined {
  const code = databaseErrorCode(error)
  if (code === undefined) return undefined
  const kind = outageKindOf(code)
  return kind ? { kind, retryable: true } : { kind: 'refused', retryable: false }
}

/** The outage an error means, or undefined (Persistence.outageOf for both databases). */
export function outageOf(error: unknown): DatabaseOutageKind | undefined {
  const classified = classifyDatabaseError(error)
  return classified?.retryable ? classified.kind : undefined
}

/**
 * A statement named without its values: `insert into needs`, `select from members`, `update outbox_messages`,
 * or its first word (`commit`, `pragma`). Table names and keywords only: drizzle binds every value as a
 * parameter, and nothing past the table's name is kept.
 */
export function statementOf(query: string): string {
  const text = query.trim().toLowerCase()
  const table = '"?([a-z_][a-z0-9_]*)"?'
  const write = new RegExp(`^(insert into|update|delete from)\\s+${table}`).exec(text)
  if (write) return `${write[1]} ${write[2]}`
  const read = new RegExp(`^(?:with|select)\\b[\\s\\S]*?\\bfrom\\s+${table}`).exec(text)
  if (read) return `select from ${read[1]}`
  return /^[a-z]+/.exec(text)?.[0] ?? 'statement'
}

/**
 * What a log line may say of a database's error: the statement's name and the driver's code, never its
 * message or parameters. Drizzle's message holds every value the statement was given (`Failed query: … params:
 * <name>,<phone>,…`), and PostgreSQL's detail quotes the row it refused; both stay out of the log.
 */
export function describeDatabaseError(error: unknown): string | undefined {
  const query = (error as { query?: unknown } | null)?.query
  const name = (error as { name?: unknown } | null)?.name
  // Drizzle's wrapper, or the drivers' own errors raised outside drizzle (whose detail may quote a row).
  if (typeof query !== 'string' && name !== 'SQLiteError' && name !== 'PostgresError') return undefined
  const code = databaseErrorCode(error)
  return `database error ${code ?? 'without a code'}${typeof query === 'string' ? ` in ${statementOf(query)}` : ''}`
}

/** Drizzle's failed query, from its words to the end of the text (the parameters, then the stack). */
const FAILED_QUERY = /Failed query: ([\s\S]*?)\nparams: [\s\S]*$/

/** Text that may hold a drizzle error's message (a stack, `String(error)`) with the statement's parameters cut. */
export function withoutStatementParameters(text: string): string {
  return text.replace(FAILED_QUERY, (_all, query: string) => `Failed query: ${statementOf(query)} (parameters not logged)`)
}

/** An error as a log line or a terminal may show it: a database's by statement and code, any other by its stack, parameters cut. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return withoutStatementParameters(String(error))
  return describeDatabaseError(error) ?? withoutStatementParameters(error.stack ?? `${error.name}: ${error.message}`)
}
