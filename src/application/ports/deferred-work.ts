/**
 * Work a use case leaves for after its caller has the answer (docs/api/access.md "Tokens": a password reset), so
 * what the work finds changes nothing in the answer, its time included. It runs in this process, one piece
 * at a time; a shutdown waits for it, a crash loses what had not run yet.
 */
export interface DeferredWork {
  /** `what` names the work in the log when it fails. */
  defer(what: string, work: () => Promise<void>): void
}
