import type { Repositories } from './repositories'

/**
 * All or nothing. `run` hands `work` repositories bound to one transaction: it commits when the returned
 * promise resolves and rolls back when it rejects, whatever `work` awaited in between. A write the database
 * refuses fails `run` with its error even when an adapter sent it on without waiting (PostgreSQL's writes
 * nobody reads): nothing of the unit is kept. Every write goes through here; reads of committed data use
 * the plain `Repositories`. Reads `work` starts together (`Promise.all`) may reach the database together.
 *
 * Keep slow I/O (providers, email, SMS) out of `work`: put it in the outbox instead.
 */
export interface UnitOfWork {
  run<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>
}
