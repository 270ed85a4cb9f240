import { MemoryPersistence } from '../../../src/adapters/persistence/memory/memory-persistence'
import { describeRepositories } from './repository-contract'

describeRepositories('memory', async () => {
  const persistence = new MemoryPersistence()
  return { persistence, cleanup: () => persistence.close() }
})
