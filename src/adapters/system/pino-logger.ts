import pino, { type DestinationStream } from 'pino'
import type { Logger } from '../../application/ports/logger'
import { requestContext } from './request-context'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * Fields never written, whoever passes them (callers are asked not to; this is the net under them). Values
 * anywhere one level down are covered too, as are request headers if a whole request is ever logged.
 */
const REDACTED = ['password', 'token', 'accessToken', 'refreshToken', 'apiKey', 'secret', 'authorization', 'cookie']
const REDACT_PATHS = [...REDACTED, ...REDACTED.map((key) => `*.${key}`), 'headers.authorization', 'headers.cookie']

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
    this.pino.debug(fields ?? {}, message)
  }
  info(message: string, fields?: Record<string, unknown>) {
    this.pino.info(fields ?? {}, message)
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.pino.warn(fields ?? {}, message)
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.pino.error(fields ?? {}, message)
  }
}
