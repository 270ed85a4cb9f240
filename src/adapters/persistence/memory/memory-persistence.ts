import type { Persistence } from '../../../application/ports/persistence'
import { PollingLiveEventFeed } from '../shared/polling-live-event-feed'
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
  liveEventFeed() {
    return new PollingLiveEventFeed(this.repositories.liveEvents)
  }
  outageOf() {
    return undefined
  }
  async close() {}
}
