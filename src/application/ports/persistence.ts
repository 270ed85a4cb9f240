import type { LiveEventFeed } from './live-event-feed'
import type { Repositories } from './repositories'
import type { UnitOfWork } from './unit-of-work'

/** A database as the service runs it: committed reads, transactions, readiness and shutdown. */
export interface Persistence {
  readonly repositories: Repositories
  readonly unitOfWork: UnitOfWork
  /** Brings the schema up to date (applied at start and by `intake migrate`). */
  migrate(): Promise<MigrationOutcome>
  /** True when the database answers (readiness). */
  ping(): Promise<boolean>
  /**
   * The database's own clock, where it has one apart from the machine's (PostgreSQL): what every process
   * on the database measures leases and orders records by (docs/faults.md "Clock steps").
   */
  databaseTime?(): Promise<Date>
  /** The committed events of every organization, as they commit (the live stream's source). */
  liveEventFeed(): LiveEventFeed
  /** What kind of outage an error means (the database away, full or overloaded for now: 503), or undefined for any other error. */
  outageOf(error: unknown): DatabaseOutageKind | undefined
  close(): Promise<void>
}

export interface MigrationOutcome {
  /** Where the database was copied before migrations changed it (SQLite). */
  backup?: string
  /** What a start killed while copying the database left beside it, removed (SQLite). */
  leftoversRemoved?: string[]
}

/**
 * Why the database cannot serve a request for now, as `intake_database_errors_total{kind}` counts it
 * (docs/observability.md): unreachable (connection refused, lost or timed out), shutdown (an administrator
 * or a crash is stopping it), too_many_connections, out_of_resources (memory, a configured limit),
 * disk_full, io_error (the disk fails), busy (locked by another writer, a deadlock), read_only (a standby, or a
 * server failing over, cannot take writes), timed_out (a unit of work passed its deadline before it asked to
 * commit: nothing was changed), in_doubt (it passed its deadline, or lost its connection, after it asked to
 * commit: the change may have been saved).
 */
export const DATABASE_OUTAGE_KINDS = [
  'unreachable',
  'shutdown',
  'too_many_connections',
  'out_of_resources',
  'disk_full',
  'io_error',
  'busy',
  'read_only',
  'timed_out',
  'in_doubt',
] as const
export type DatabaseOutageKind = (typeof DATABASE_OUTAGE_KINDS)[number]
