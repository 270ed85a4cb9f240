import pino, { type DestinationStream } from 'pino'
import type { Logger } from '../../application/ports/logger'
import { errorText, withoutStatementParameters } from '../persistence/shared/database-errors'
import { requestContext } from './request-context'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * Fields never written, whoever passes them (callers are asked not to; this is the net under them). Values
 * anywhere one level down are covered too, as are request headers if a whole request is ever logged.
 */
const REDACTED = ['password', 'token', 'accessToken', 'refreshToken', 'apiKey', 'secret', 'authorization', 'cookie']
const REDACT_PATHS = [...REDACTED, ...REDACTED.map((key) => `*.${key}`), 'headers.authorization', 'headers.cookie']

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
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, loggable(item, depth + 1)]))
}

/**
 * One JSON object per line (pino) on stderr, written synchronously: no worker threads, so it runs inside the
 * single binary too. Every line written while a request is handled carries its request id (and member id).
 */
export class PinoLogger implements Logger {
  private readonly pino: pino.Logger

  constructor(level: LogLevel, destination: DestinationStream = pino.destination({ dest: 2, sync: true })) {
    this.pino = pino(
      {
        level,
        base: undefined,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: REDACT_PATHS, censor: '[redacted]' },
        mixin: () => {
          const context = requestContext.getStore()
          return context ? { requestId: context.requestId, ...(context.memberId ? { memberId: context.memberId } : {}) } : {}
        },
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

  private write(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}) {
    if (this.pino.isLevelEnabled(level)) this.pino[level](loggable(fields) as object, withoutStatementParameters(message))
  }
}
