import type { CreatedConstituent } from '../../../src/application/constituents/create-constituent'
import type { CreatedNeed, CreateNeedInput } from '../../../src/application/needs/create-need'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import type { ContactDetails } from '../../../src/domain/constituents/contact'
import type { HouseholdMatch, MatchStatus } from '../../../src/domain/constituents/household-match'
import { PORTS } from '../../../src/main/container'
import type { World } from '../../support/world'

// Steps shared by the constituent use-case tests. Each acts as the organization's admin, who may read
// every field, so what it answers is what was stored. Each moves the clock a minute first, so records
// come back in a known newest-first order.

export const ALL = { page: 1, limit: 100 }

/** Registers a constituent through CreateConstituent (so duplicate detection runs); answers the record. */
export async function register(world: World, details: ContactDetails, householdId?: string): Promise<Constituent> {
  world.clock.advance(60_000)
  return recordOf(await world.useCases.constituents.create.execute(world.admin, { ...details, ...(householdId ? { householdId } : {}) }))
}

/** The constituent of a creation's answer, without the possible duplicates beside it. */
export const recordOf = ({ possibleDuplicates: _p, duplicateWarning: _w, ...constituent }: CreatedConstituent): Constituent => constituent

/** Creates a need for the default partner through CreateNeed. */
export async function needFor(world: World, input: Partial<CreateNeedInput> = {}): Promise<CreatedNeed> {
  world.clock.advance(60_000)
  return world.useCases.needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, ...input })
}

/** The organization's household matches as stored (without the people the list adds), newest first. */
export async function matchesOf(world: World, status?: MatchStatus): Promise<HouseholdMatch[]> {
  return (await world.useCases.constituents.listMatches.execute(world.admin, status, ALL)).items.map(asStored)
}

/** A listed or resolved match without the people it is answered with. */
export const asStored = ({
  constituent: _c,
  candidate: _d,
  ...match
}: HouseholdMatch & { constituent?: unknown; candidate?: unknown }): HouseholdMatch => match

/** The (unordered) pair of constituents a match names, sorted so pairs compare equal. */
export const pairOf = (m: Pick<HouseholdMatch, 'constituentId' | 'candidateConstituentId'>) =>
  [m.constituentId, m.candidateConstituentId].sort()
export const pair = (a: { id: string }, b: { id: string }) => [a.id, b.id].sort()

export const storedConstituent = (world: World, id: string) => world.repositories.constituents.findById(world.organizationId, id)
export const storedNeed = (world: World, id: string) => world.repositories.needs.findById(world.organizationId, id)
export const householdExists = (world: World, id: string) => world.repositories.constituents.householdExists(world.organizationId, id)

/** A constituent stored straight through the ports, skipping duplicate detection, so only a later run can find it. */
export async function storedQuietly(world: World, details: ContactDetails): Promise<Constituent> {
  const now = world.clock.now()
  const householdId = crypto.randomUUID()
  const constituent: Constituent = {
    ...details,
    id: crypto.randomUUID(),
    organizationId: world.organizationId,
    householdId,
    createdAt: now,
    updatedAt: now,
  }
  await world.container.get(PORTS.unitOfWork).run(async (r) => {
    await r.constituents.insertHousehold({ id: householdId, organizationId: world.organizationId, createdAt: now })
    await r.constituents.insert(constituent)
  })
  return constituent
}
