import type { MemoryStore } from '../../../src/adapters/persistence/memory/memory-store'
import { PORTS } from '../../../src/main/container'
import type { World } from '../../support/world'

/**
 * Puts a constituent in its own household straight into the in-memory store: constituents have no use
 * case that writes them yet (they grow in their own issue), and needs only check they exist.
 */
export function seedConstituent(world: World): { constituentId: string; householdId: string } {
  const { store } = world.container.get(PORTS.persistence) as unknown as { store: MemoryStore }
  const constituentId = crypto.randomUUID()
  const householdId = crypto.randomUUID()
  store.tables.households.set(householdId, { id: householdId, organizationId: world.organizationId })
  store.tables.constituents.set(constituentId, { id: constituentId, organizationId: world.organizationId, householdId })
  return { constituentId, householdId }
}
