import type { Logger } from '../../application/ports/logger'
import type { DatabaseOutageKind, Persistence } from '../../application/ports/persistence'
import { BurstLog } from '../system/burst-log'

/** What a client is told to wait before trying again; readiness stays down as long after a failed write. */
export const RETRY_AFTER_SECONDS = 5

/** What a 503 says of each outage, in words (the kind itself is in the metric and the log). */
export const OUTAGE_DETAIL: Record<DatabaseOutageKind, string> = {
  unreachable: 'The database is not answering; try again shortly',
  shutdown: 'The database is restarting; try again shortly',
  too_many_connections: 'The database has no free connection; try again shortly',
  out_of_resources: 'The database is out of resources; try again shortly',
  disk_full: 'The database cannot write: its disk is full; try again later',
  io_error: 'The database cannot read or write its disk; try again later',
  busy: 'The database is busy; try again shortly',
  read_only: 'The database cannot take writes now (failing over); nothing was changed; try again shortly',
  timed_out: 'The database did not answer in time; nothing was changed; try again shortly',
  in_doubt:
    'The database did not confirm the change in time: it may have been saved. Retry with the same Idempotency-Key to get its outcome without making it twice',
}

/** Where outages are counted (`intake_database_errors_total{kind}`). */
export interface OutageMetrics {
  databaseError(kind: DatabaseOutageKind): void
}

/** A request failed by a database outage: known by its kind, counted each time, logged once per burst. */
export class DatabaseOutages {
  private readonly log: BurstLog

  constructor(
    private readonly persistence: Pick<Persistence, 'outageOf'>,
    private readonly metrics: OutageMetrics,
    logger: Logger,
  ) {
    this.log = new BurstLog(logger)
  }

  kindOf(error: unknown): DatabaseOutageKind | undefined {
    return this.persistence.outageOf(error)
  }

  report(kind: DatabaseOutageKind): void {
    this.metrics.databaseError(kind)
    this.log.warn('database unavailable', { kind })
  }
}
