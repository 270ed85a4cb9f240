/** New identifiers behind a port, so tests can predict them. Which kind a record takes: docs/api/conventions.md "Identifiers". */
export interface IdGenerator {
  /** A UUID v4, nothing in it but chance: people and the organization's own records. */
  next(): string
  /**
   * A UUID v7, the time first, then chance: events (needs, their history, interactions, household matches,
   * audit events, outbox messages), shown with their time anyway. Rows keyed by these land side by side at
   * the end of their index, so a group of writes dirties one page there instead of one page a row.
   */
  nextInTimeOrder(): string
}
