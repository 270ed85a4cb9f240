/**
 * Where a repository puts a write whose result nobody reads: the insert of a new row, an appended history
 * entry, audit event or outbox message. Such a write is started by the repository (so it keeps its place
 * among the statements of its transaction) and handed to `send`, which settles it: here, at once; in a
 * PostgreSQL transaction, with the statements after it (postgres/sent-writes.ts).
 */
export interface UnreadWrites {
  send(write: PromiseLike<unknown>): Promise<void>
}

/** Each write awaited where it is made: SQLite's, and any outside a PostgreSQL transaction. */
export const AWAITED_WRITES: UnreadWrites = {
  async send(write) {
    await write
  },
}
