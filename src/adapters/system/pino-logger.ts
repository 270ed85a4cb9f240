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

/** JSON strings of the texts access lines repeat (methods, routes' templates, the members at work), each made once; at most `limit` kept. */
class QuotedTexts {
  private readonly known = new Map<string, string>()
  constructor(private readonly limit: number) {}

  of(text: string): string {
    let quoted = this.known.get(text)
    if (quoted === undefined) {
      if (this.known.size >= this.limit) this.known.clear()
      quoted = JSON.stringify(text)
      this.known.set(text, quoted)
    }
    return quoted
  }
}

/** The time as pino writes it (ISO 8601), made once a millisecond: under load, many lines share one. */
class IsoClock {
  private ms = Number.NaN
  private text = ''

  iso(): string {
    const ms = Date.now()
    if (ms !== this.ms) {
      this.ms = ms
      this.text = new Date(ms).toISOString()
    }
    return this.text
  }
}

/**
 * One JSON object per line (pino) on stderr (`bufferedStderr`), written without worker threads, so it runs
 * inside the single binary too. Every line written while a request is handled carries its request id (and
 * member id).
 */
export class PinoLogger implements Logger, AccessLog {
  private readonly pino: pino.Logger
  private readonly quoted = new QuotedTexts(1000)
  private readonly clock = new IsoClock()

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
   * needed; the texts lines repeat (the time within a millisecond, the method, the route, the member) are
   * quoted once, and the line costs a tenth of pino's (docs/performance/access-log.md "The access log").
   */
  request({ method, route, status, durationMs }: AccessLine) {
    if (!this.pino.isLevelEnabled('info')) return
    // The ids as `requestIds` gives them to pino's mixin, without the object.
    const context = requestContext.getStore()
    const ids = context
      ? `,"requestId":${JSON.stringify(context.requestId)}${context.memberId ? `,"memberId":${this.quoted.of(context.memberId)}` : ''}`
      : ''
    const line = `{"level":"info","time":"${this.clock.iso()}"${ids},"method":${this.quoted.of(method)},"route":${this.quoted.of(route)},"status":${status},"durationMs":${durationMs},"message":"request"}\n`
    this.destination.write(line)
  }

  private write(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}) {
    if (!this.pino.isLevelEnabled(level)) return
    this.pino[level](loggable(fields) as object, withoutStatementParameters(message))
    if (level === 'warn' || level === 'error') this.destination.flush?.()
  }
}
