import type { ContactDetails } from '../../../src/domain/constituents/contact'
import type { World } from '../../support/world'

/** Registers a constituent in a household of its own through the use case, as the organization's admin. */
export async function seedConstituent(
  world: World,
  details: ContactDetails = { firstName: 'Ana' },
): Promise<{ constituentId: string; householdId: string }> {
  const constituent = await world.useCases.constituents.create.execute(world.admin, details)
  return { constituentId: constituent.id, householdId: constituent.householdId }
}
