import pino, { type DestinationStream } from 'pino'
import type { Logger } from '../../application/ports/logger'
import type { AccessLine, AccessLog } from '../http/observability'
import { errorText, withoutStatementParameters } from '../persistence/shared/database-errors'
import { bufferedStderr } from './buffered-output'
import { requestContext } from './request-context'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * Fields never written, whoever passes them (callers are asked not to; this is the net under them), at any
 * depth `loggable` walks: request headers too, if a whole request is ever logged. Checked in that walk
 * rather than by pino's `redact`, which cost as much again as the rest of an access-log line.
 */
const REDACTED = new Set(['password', 'token', 'accessToken', 'refreshToken', 'apiKey', 'secret', 'authorization', 'cookie'])
const CENSOR = '[redacted]'

/** How deep into the fields `loggable` looks: further than any caller nests what it logs. */
const LOGGABLE_DEPTH = 4

/**
 * A value as it may be written: an error by its stack, or a database's error by its statement's name and
 * code alone; any text with a statement's parameters cut (a caller may log `String(error)`). Every path
 * that logs (requests, the worker, the CLI's commands) writes through here, so none can write the values a
 * failed statement carried.
 */
function loggable(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutStatementParameters(value)
  if (value instanceof Error) return errorText(value)
  if (depth >= LOGGABLE_DEPTH || typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => loggable(item, depth + 1))
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, REDACTED.has(key) ? CENSOR : loggable(item, depth + 1)]))
}

/** The request's ids as the mixin writes them: the same keys, in the same order. */
function requestIds(): { requestId: string; memberId?: string } | Record<string, never> {
  const context = requestContext.getStore()
  return context ? { requestId: context.requestId, ...(context.memberId ? { memberId: context.memberId } : {}) } : {}
}

/**
 * One JSON object per line (pino) on stderr (`bufferedStderr`), written without worker threads, so it runs
 * inside the single binary too. Every line written while a request is handled carries its request id (and
 * member id).
 */
export class PinoLogger implements Logger, AccessLog {
  private readonly pino: pino.Logger

  constructor(
    level: LogLevel,
    private readonly destination: DestinationStream & { flush?: () => void } = bufferedStderr(),
  ) {
    this.pino = pino(
      {
        level,
        base: undefined,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: requestIds,
      },
      destination,
    )
  }

  debug(message: string, fields?: Record<string, unknown>) {
    this.write('debug', message, fields)
  }
  info(message: string, fields?: Record<string, unknown>) {
    this.write('info', message, fields)
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.write('warn', message, fields)
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.write('error', message, fields)
  }

  /**
   * The access-log line, the one line every request writes, as pino would write it (the same keys and
   * values: pinned by a test) but from a template: its fields are fixed and none can hold a secret (a
   * method, a route's template, a status, a duration), so neither pino's object nor the field walk is
   * needed, and the line costs a third of theirs (docs/performance.md "The access log").
   */
  request({ method, route, status, durationMs }: AccessLine) {
    if (!this.pino.isLevelEnabled('info')) return
    const { requestId, memberId } = requestIds()
    const ids = `${requestId === undefined ? '' : `,"requestId":${JSON.stringify(requestId)}`}${memberId === undefined ? '' : `,"memberId":${JSON.stringify(memberId)}`}`
    this.destination.write(
      `{"level":"info","time":"${new Date().toISOString()}"${ids},"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status},"durationMs":${durationMs},"message":"request"}\n`,
    )
  }

  private write(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}) {
    if (!this.pino.isLevelEnabled(level)) return
    this.pino[level](loggable(fields) as object, withoutStatementParameters(message))
    if (level === 'warn' || level === 'error') this.destination.flush?.()
  }
}
