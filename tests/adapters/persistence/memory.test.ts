import { MemoryPersistence } from '../../../src/adapters/persistence/memory/memory-persistence'
import type { MemoryStore } from '../../../src/adapters/persistence/memory/memory-store'
import { describeRepositories } from './repository-contract'

describeRepositories('memory', async () => {
  const persistence = new MemoryPersistence()
  // No port writes constituents or households yet: seed the committed tables directly.
  const tables = () => (persistence as unknown as { store: MemoryStore }).store.tables
  return {
    persistence,
    cleanup: () => persistence.close(),
    seed: {
      async household({ id, organizationId }) {
        tables().households.set(id, { id, organizationId })
      },
      async constituent({ id, organizationId, householdId }) {
        tables().constituents.set(id, { id, organizationId, householdId })
      },
    },
  }
})
