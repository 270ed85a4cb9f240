/** Structured logging. Callers never pass secrets, passwords, tokens or personal data. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Says nothing: for parts given no logger. */
export const SILENT_LOGGER: Logger = { debug() {}, info() {}, warn() {}, error() {} }
