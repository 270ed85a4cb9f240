import type { Repositories } from './repositories'
import type { UnitOfWork } from './unit-of-work'

/** A database as the service runs it: committed reads, transactions, readiness and shutdown. */
export interface Persistence {
  readonly repositories: Repositories
  readonly unitOfWork: UnitOfWork
  /** True when the database answers (readiness). */
  ping(): Promise<boolean>
  close(): Promise<void>
}
