import type { Logger } from '../../application/ports/logger'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** One JSON object per line on stderr; `write` can be replaced to capture logs in tests. */
export class JsonLogger implements Logger {
  private readonly threshold: number

  constructor(
    level: LogLevel,
    private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {
    this.threshold = LOG_LEVELS.indexOf(level)
  }

  debug(message: string, fields?: Record<string, unknown>) {
    this.log('debug', message, fields)
  }
  info(message: string, fields?: Record<string, unknown>) {
    this.log('info', message, fields)
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.log('warn', message, fields)
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.log('error', message, fields)
  }

  private log(level: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return
    this.write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }))
  }
}
