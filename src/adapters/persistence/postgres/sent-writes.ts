import type { UnreadWrites } from '../sql/unread-writes'

/**
 * The writes of one PostgreSQL transaction whose results nobody reads, as they were sent, and how each
 * ended. Each goes out at once, with the statements after it, and the last ones with COMMIT: a create of a
 * need reads what it must (its partner, the webhook endpoints) and sends the rest with COMMIT, the need's
 * insert too, whose reference number is read only once it is answered. The server answers statements in the order they were sent, so when one fails, the transaction
 * is aborted (COMMIT rolls it back) and those after it fail only because it did (SQLSTATE 25P02): the first
 * failure is the cause, and the unit fails with it as its repository reported it (a unique index is the same
 * 409).
 */
export class SentWrites implements UnreadWrites {
  private readonly settled: Array<Promise<void>> = []
  private readonly failures: unknown[] = []

  send(write: PromiseLike<unknown>): Promise<void> {
    const at = this.settled.length
    this.settled.push(
      // then() at once: a postgres-js query goes out when asked for its result, and must go out now.
      Promise.resolve(
        write.then(
          () => {},
          (error: unknown) => {
            this.failures[at] = error
          },
        ),
      ),
    )
    return Promise.resolve()
  }

  /** The first write (in the order sent) that failed, once every write sent has been answered. */
  async firstFailure(): Promise<{ error: unknown } | undefined> {
    await Promise.all(this.settled)
    const at = this.failures.findIndex((_, i) => i in this.failures)
    return at === -1 ? undefined : { error: this.failures[at] }
  }
}
