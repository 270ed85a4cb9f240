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
  /** Whether an error means the database is away for now (503), rather than a bug. */
  isOutage(error: unknown): boolean
  close(): Promise<void>
}

export interface MigrationOutcome {
  /** Where the database was copied before migrations changed it (SQLite). */
  backup?: string
  /** What a start killed while copying the database left beside it, removed (SQLite). */
  leftoversRemoved?: string[]
}
