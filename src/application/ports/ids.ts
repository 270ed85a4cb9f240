/** New identifiers behind a port, so tests can predict them. */
export interface IdGenerator {
  /** A UUID v4. */
  next(): string
}
