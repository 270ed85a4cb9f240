import type {
  ConstituentRepository,
  InteractionRepository,
  LoginAttemptRepository,
  MemberRepository,
  NeedFilter,
  NeedRepository,
  OrganizationRepository,
  PartnerRepository,
  RefreshTokenRecord,
  RefreshTokenRepository,
  Repositories,
} from '../../../application/ports/repositories'
import type { Member } from '../../../domain/members/member'
import type { Interaction } from '../../../domain/needs/interaction'
import { FIRST_REFERENCE_NUMBER, type Need, type NeedChange } from '../../../domain/needs/need'
import type { Organization } from '../../../domain/organizations/organization'
import type { Partner } from '../../../domain/partners/partner'
import { offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import { copy, type MemoryStore } from './memory-store'

/** Newest first, id as tie-break: the order of every list (contract §3). */
function newestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

function inOrganization<T extends { organizationId: string }>(record: T | undefined, organizationId: string): T | undefined {
  return record && record.organizationId === organizationId ? copy(record) : undefined
}

/** Reads the store's tables at each call, so a committed transaction is seen at once. */
abstract class MemoryRepository {
  constructor(private readonly store: MemoryStore) {}
  protected get t() {
    return this.store.tables
  }
}

class MemoryOrganizationRepository extends MemoryRepository implements OrganizationRepository {
  async insert(organization: Organization) {
    this.t.organizations.set(organization.id, { ...copy(organization), needSequence: FIRST_REFERENCE_NUMBER - 1 })
  }
  async findById(id: string) {
    const found = this.t.organizations.get(id)
    return found ? withoutSequence(found) : undefined
  }
  async findBySlug(slug: string) {
    const found = [...this.t.organizations.values()].find((o) => o.slug === slug)
    return found ? withoutSequence(found) : undefined
  }
  async findByShortCode(shortCode: string) {
    const found = [...this.t.organizations.values()].find((o) => o.shortCode === shortCode)
    return found ? withoutSequence(found) : undefined
  }
  async count() {
    return this.t.organizations.size
  }
  async takeNextNeedNumber(organizationId: string) {
    const organization = this.t.organizations.get(organizationId)
    if (!organization) throw new Error(`No organization ${organizationId}`)
    organization.needSequence += 1
    return organization.needSequence
  }
}

function withoutSequence({ needSequence: _sequence, ...organization }: Organization & { needSequence: number }): Organization {
  return copy(organization)
}

class MemoryPartnerRepository extends MemoryRepository implements PartnerRepository {
  async insert(partner: Partner) {
    this.t.partners.set(partner.id, copy(partner))
  }
  async update(partner: Partner) {
    if (this.t.partners.get(partner.id)?.organizationId === partner.organizationId) this.t.partners.set(partner.id, copy(partner))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.partners.get(id), organizationId)
  }
  async listAll(organizationId: string) {
    return [...this.t.partners.values()]
      .filter((p) => p.organizationId === organizationId)
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async clearDefaultExcept(organizationId: string, keepId: string) {
    for (const partner of this.t.partners.values()) {
      if (partner.organizationId === organizationId && partner.id !== keepId) partner.isDefault = false
    }
  }
}

class MemoryMemberRepository extends MemoryRepository implements MemberRepository {
  async insert(member: Member) {
    this.t.members.set(member.id, copy(member))
  }
  async update(member: Member) {
    if (this.t.members.get(member.id)?.organizationId === member.organizationId) this.t.members.set(member.id, copy(member))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.members.get(id), organizationId)
  }
  async findAllByEmail(email: string) {
    return [...this.t.members.values()].filter((m) => m.email === email).map(copy)
  }
  async findByEmail(organizationId: string, email: string) {
    return copy([...this.t.members.values()].find((m) => m.organizationId === organizationId && m.email === email))
  }
}

class MemoryNeedRepository extends MemoryRepository implements NeedRepository {
  async insert(need: Need) {
    this.t.needs.set(need.id, copy(need))
  }
  async update(need: Need) {
    if (this.t.needs.get(need.id)?.organizationId === need.organizationId) this.t.needs.set(need.id, copy(need))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.needs.get(id), organizationId)
  }
  async findByReferenceNumber(organizationId: string, referenceNumber: string) {
    return copy([...this.t.needs.values()].find((n) => n.organizationId === organizationId && n.referenceNumber === referenceNumber))
  }
  async list(organizationId: string, filter: NeedFilter, page: PageRequest): Promise<Page<Need>> {
    const matching = [...this.t.needs.values()]
      .filter(
        (n) =>
          n.organizationId === organizationId &&
          (!filter.statuses || filter.statuses.includes(n.status)) &&
          (!filter.partnerId || n.partnerId === filter.partnerId) &&
          (!filter.assignedTo || n.assignedTo === filter.assignedTo) &&
          (!filter.constituentId || n.constituentId === filter.constituentId),
      )
      .sort(newestFirst)
    const start = offsetOf(page)
    return { items: matching.slice(start, start + page.limit).map(copy), total: matching.length }
  }
  async appendChanges(changes: NeedChange[]) {
    this.t.needChanges.push(...copy(changes))
  }
  async listChanges(organizationId: string, needId: string) {
    return this.t.needChanges.filter((c) => c.organizationId === organizationId && c.needId === needId).map(copy)
  }
}

class MemoryInteractionRepository extends MemoryRepository implements InteractionRepository {
  async insert(interaction: Interaction) {
    this.t.interactions.push(copy(interaction))
  }
  async listByNeed(organizationId: string, needId: string) {
    return this.t.interactions
      .filter((i) => i.organizationId === organizationId && i.needId === needId)
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
}

class MemoryConstituentRepository extends MemoryRepository implements ConstituentRepository {
  async findHouseholdOf(organizationId: string, constituentId: string) {
    return inOrganization(this.t.constituents.get(constituentId), organizationId)?.householdId
  }
  async householdExists(organizationId: string, householdId: string) {
    return inOrganization(this.t.households.get(householdId), organizationId) !== undefined
  }
}

class MemoryRefreshTokenRepository extends MemoryRepository implements RefreshTokenRepository {
  async insert(token: RefreshTokenRecord) {
    this.t.refreshTokens.set(token.id, copy(token))
  }
  async findByHash(tokenHash: string) {
    return copy([...this.t.refreshTokens.values()].find((token) => token.tokenHash === tokenHash))
  }
  async markRotated(id: string, at: Date) {
    const token = this.t.refreshTokens.get(id)
    if (!token || token.rotatedAt) return false
    token.rotatedAt = at
    return true
  }
  async revokeFamily(familyId: string, at: Date) {
    for (const token of this.t.refreshTokens.values()) if (token.familyId === familyId && !token.revokedAt) token.revokedAt = at
  }
}

class MemoryLoginAttemptRepository extends MemoryRepository implements LoginAttemptRepository {
  async recordFailure(email: string, at: Date) {
    this.t.loginFailures.push({ email, at })
  }
  private since(email: string, since: Date) {
    return this.t.loginFailures.filter((f) => f.email === email && f.at >= since)
  }
  async countFailuresSince(email: string, since: Date) {
    return this.since(email, since).length
  }
  async oldestFailureSince(email: string, since: Date) {
    const times = this.since(email, since).map((f) => f.at.getTime())
    return times.length > 0 ? new Date(Math.min(...times)) : undefined
  }
  async clear(email: string) {
    this.t.loginFailures = this.t.loginFailures.filter((f) => f.email !== email)
  }
}

/** Repositories over one store: the committed one for reads, a transaction's draft for writes. */
export function memoryRepositories(store: MemoryStore): Repositories {
  return {
    organizations: new MemoryOrganizationRepository(store),
    partners: new MemoryPartnerRepository(store),
    members: new MemoryMemberRepository(store),
    needs: new MemoryNeedRepository(store),
    interactions: new MemoryInteractionRepository(store),
    constituents: new MemoryConstituentRepository(store),
    refreshTokens: new MemoryRefreshTokenRepository(store),
    loginAttempts: new MemoryLoginAttemptRepository(store),
  }
}
