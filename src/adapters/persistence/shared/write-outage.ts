import { outageOf } from './database-errors'

/** How long a failed write keeps readiness down without another failure: the Retry-After the 503s give. */
export const WRITE_OUTAGE_HOLD_MS = 5000

/**
 * Whether writes fail for now (a full disk, too many connections), for readiness: set by a transaction that
 * failed for an outage, cleared by the next one that commits (on SQLite, one that changed a row: a full disk
 * still lets an empty transaction through). Without a new failure it lapses after
 * WRITE_OUTAGE_HOLD_MS, so an instance a load balancer took out of rotation is tried again on its own.
 */
export class WriteOutage {
  private lastFailure: number | undefined

  constructor(private readonly now: () => number = () => performance.now()) {}

  failed(error: unknown): void {
    // A busy file or a deadlock fails one transaction, not writing: the next one goes through.
    const kind = outageOf(error)
    if (kind && kind !== 'busy') this.lastFailure = this.now()
  }

  committed(): void {
    this.lastFailure = undefined
  }

  get failing(): boolean {
    return this.lastFailure !== undefined && this.now() - this.lastFailure < WRITE_OUTAGE_HOLD_MS
  }
}
