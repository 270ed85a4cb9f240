import type { HouseholdMatchRepository } from '../../../application/ports/repositories/household-match-repository'
import type { HouseholdMatch, MatchStatus } from '../../../domain/constituents/household-match'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, inOrganization, page } from './memory-repository'

export class MemoryHouseholdMatchRepository extends MemoryRepository implements HouseholdMatchRepository {
  async insert(m: HouseholdMatch) {
    this.t.householdMatches.set(m.id, copy(m))
  }
  async insertMany(matches: readonly HouseholdMatch[]) {
    for (const m of matches) await this.insert(m)
  }
  async update(m: HouseholdMatch) {
    const stored = this.t.householdMatches.get(m.id)
    if (stored?.organizationId === m.organizationId) this.t.householdMatches.set(m.id, copy({ ...m, createdAt: stored.createdAt }))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.householdMatches.get(id), organizationId)
  }
  async list(organizationId: string, status: MatchStatus | undefined, request: PageRequest) {
    const matches = [...this.t.householdMatches.values()]
      .filter((m) => m.organizationId === organizationId && (!status || m.status === status))
      .sort(newestFirst)
    return page(matches, request)
  }
  async listInvolving(organizationId: string, constituentId: string) {
    return [...this.t.householdMatches.values()]
      .filter(
        (m) => m.organizationId === organizationId && (m.constituentId === constituentId || m.candidateConstituentId === constituentId),
      )
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async delete(organizationId: string, id: string) {
    if (this.t.householdMatches.get(id)?.organizationId === organizationId) this.t.householdMatches.delete(id)
  }
}
