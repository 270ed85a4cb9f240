import type { Persistence } from '../../../application/ports/persistence'
import { memoryRepositories } from './memory-repositories'
import { MemoryStore } from './memory-store'
import { MemoryUnitOfWork } from './memory-unit-of-work'

/** Everything in the process's memory: for use-case tests and trying the service out. */
export class MemoryPersistence implements Persistence {
  private readonly store = new MemoryStore()
  readonly repositories = memoryRepositories(this.store)
  readonly unitOfWork = new MemoryUnitOfWork(this.store)

  async migrate() {
    return {}
  }
  async ping() {
    return true
  }
  outageOf() {
    return undefined
  }
  async close() {}
}
