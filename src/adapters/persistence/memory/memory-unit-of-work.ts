import type { Repositories } from '../../../application/ports/repositories'
import type { UnitOfWork } from '../../../application/ports/unit-of-work'
import { Mutex } from '../shared/mutex'
import { memoryRepositories } from './memory-repositories'
import { copy, MemoryStore } from './memory-store'

/** Transactions on a draft copy of the tables, swapped in on success: readers never see half a transaction. */
export class MemoryUnitOfWork implements UnitOfWork {
  private readonly mutex = new Mutex()

  constructor(private readonly store: MemoryStore) {}

  run<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return this.mutex.lock(async () => {
      const draft = new MemoryStore(copy(this.store.tables))
      const result = await work(memoryRepositories(draft))
      this.store.tables = draft.tables
      return result
    })
  }
}
