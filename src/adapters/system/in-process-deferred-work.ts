import type { DeferredWork } from '../../application/ports/deferred-work'
import type { Logger } from '../../application/ports/logger'

/** The next turn of the event loop, after the answer at hand has been handed to the server. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Runs deferred work in order, each piece on a later turn of the event loop than the request that left it. */
export class InProcessDeferredWork implements DeferredWork {
  private tail: Promise<void> = Promise.resolve()

  constructor(private readonly logger: Logger) {}

  defer(what: string, work: () => Promise<void>): void {
    this.tail = this.tail
      .then(nextTurn)
      .then(work)
      // The error's kind only: a database's message may quote the values of the statement (an email).
      .catch((error: unknown) => this.logger.error(`${what} failed`, { error: error instanceof Error ? error.name : typeof error }))
  }

  /** Resolves once everything deferred so far, and whatever that deferred in turn, has run (shutdown, tests). */
  async settled(): Promise<void> {
    let seen: Promise<void>
    do {
      seen = this.tail
      await seen
    } while (seen !== this.tail)
  }
}
