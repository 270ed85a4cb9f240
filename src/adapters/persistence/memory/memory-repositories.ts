import type { LoginFailures } from '../../../domain/auth/login-throttle'
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
  HouseholdMatchRepository,
  InvitationRepository,
  EmailSettingsRepository,
  OutboxRepository,
  SmsOptOutRepository,
} from '../../../application/ports/repositories'
import { EARLY_STATUS_KEPT_MS, type DeliveryStatus } from '../../../domain/messaging/sms'
import type { Role } from '../../../domain/auth/roles'
import { ConflictError } from '../../../domain/errors'
import type { Invitation } from '../../../domain/members/invitation'
import type { StoredEmailSettings } from '../../../domain/messaging/email'
import type { OutboxMessage } from '../../../domain/messaging/outbox'
import type { Constituent, Household } from '../../../domain/constituents/constituent'
import type { HouseholdMatch, MatchStatus } from '../../../domain/constituents/household-match'
import { matchKeysOf, type MatchKeys } from '../../../domain/constituents/matching'
import { searchTermsOf, termsMatch, type ConstituentQuery } from '../../../domain/constituents/search'
import type { Member } from '../../../domain/members/member'
import type { Interaction } from '../../../domain/needs/interaction'
import { FIRST_REFERENCE_NUMBER, isOpen, type Need, type NeedChange } from '../../../domain/needs/need'
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
    this.assertUnique(organization)
    this.t.organizations.set(organization.id, { ...copy(organization), needSequence: FIRST_REFERENCE_NUMBER - 1 })
  }
  async update(organization: Organization) {
    const stored = this.t.organizations.get(organization.id)
    if (!stored) return
    this.assertUnique(organization)
    this.t.organizations.set(organization.id, { ...copy(organization), createdAt: stored.createdAt, needSequence: stored.needSequence })
  }
  /** The unique indexes of the SQL schema, kept here too. */
  private assertUnique(organization: Organization) {
    for (const other of this.t.organizations.values()) {
      if (other.id === organization.id) continue
      if (other.slug === organization.slug) throw new ConflictError('The slug is taken by another organization')
      if (organization.shortCode && other.shortCode === organization.shortCode) throw new ConflictError('The short code is taken by another organization')
      if (organization.phoneNumber && other.phoneNumber === organization.phoneNumber) {
        throw new ConflictError('The phone number belongs to another organization')
      }
    }
  }
  async findById(id: string) {
    const found = this.t.organizations.get(id)
    return found ? withoutSequence(found) : undefined
  }
  async findBySlug(slug: string) {
    const found = [...this.t.organizations.values()].find((o) => o.slug === slug)
    return found ? withoutSequence(found) : undefined
  }
  async findByPhoneNumber(phoneNumber: string) {
    const found = [...this.t.organizations.values()].find((o) => o.phoneNumber === phoneNumber)
    return found ? withoutSequence(found) : undefined
  }
  async findByShortCode(shortCode: string) {
    const found = [...this.t.organizations.values()].find((o) => o.shortCode === shortCode)
    return found ? withoutSequence(found) : undefined
  }
  /** Memory transactions are serial: nothing to lock. */
  async lockForUpdate() {}
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
    const taken = [...this.t.members.values()].some((m) => m.organizationId === member.organizationId && m.email === member.email)
    if (taken) throw new ConflictError('A member with this email already exists in the organization')
    this.t.members.set(member.id, copy(member))
  }
  async list(organizationId: string, filter: { partnerId?: string }, request: PageRequest) {
    const members = [...this.t.members.values()]
      .filter((m) => m.organizationId === organizationId && (!filter.partnerId || m.partnerId === filter.partnerId))
      .sort(newestFirst)
    return page(members, request)
  }
  async countConfirmedByRole(organizationId: string, role: Role) {
    return [...this.t.members.values()].filter((m) => m.organizationId === organizationId && m.role === role && m.isConfirmed).length
  }
  async update(member: Member) {
    if (this.t.members.get(member.id)?.organizationId === member.organizationId) this.t.members.set(member.id, copy(member))
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.members.get(id), organizationId)
  }
  async findInSession(organizationId: string, id: string, sessionId: string) {
    const live = [...this.t.refreshTokens.values()].some((t) => t.familyId === sessionId && t.memberId === id && !t.revokedAt)
    return live ? inOrganization(this.t.members.get(id), organizationId) : undefined
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
  private needsOf(organizationId: string, constituentId: string) {
    return [...this.t.needs.values()].filter((n) => n.organizationId === organizationId && n.constituentId === constituentId)
  }
  async moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string) {
    for (const need of this.needsOf(organizationId, fromConstituentId)) Object.assign(need, { constituentId: toConstituentId, householdId })
  }
  async newestOfConstituents(organizationId: string, constituentIds: string[], openOnly = false) {
    return [...this.t.needs.values()]
      .filter((n) => n.organizationId === organizationId && n.constituentId !== undefined && constituentIds.includes(n.constituentId))
      .filter((n) => !openOnly || isOpen(n.status))
      .sort(newestFirst)
      .slice(0, 20)
      .map(copy)
  }
  async setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string) {
    for (const need of this.needsOf(organizationId, constituentId)) need.householdId = householdId
  }
}

class MemoryInteractionRepository extends MemoryRepository implements InteractionRepository {
  async insert(interaction: Interaction) {
    this.assertProviderIdFree(interaction.providerMessageId, interaction.id)
    this.t.interactions.push(copy(interaction))
  }
  /** The unique index of the SQL schema: one provider message is one interaction. */
  private assertProviderIdFree(providerMessageId: string | undefined, ownId: string) {
    if (providerMessageId && this.t.interactions.some((i) => i.providerMessageId === providerMessageId && i.id !== ownId)) {
      throw new ConflictError('Another interaction already has this provider message id')
    }
  }
  async listByNeed(organizationId: string, needId: string) {
    return this.t.interactions
      .filter((i) => i.organizationId === organizationId && i.needId === needId)
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(
      this.t.interactions.find((i) => i.id === id),
      organizationId,
    )
  }
  async findByProviderMessageId(providerMessageId: string) {
    return copy(this.t.interactions.find((i) => i.providerMessageId === providerMessageId))
  }
  async setDelivery(organizationId: string, id: string, status: DeliveryStatus, providerMessageId: string | undefined) {
    const interaction = this.t.interactions.find((i) => i.id === id && i.organizationId === organizationId)
    if (!interaction) return
    this.assertProviderIdFree(providerMessageId, id)
    interaction.deliveryStatus = status
    if (providerMessageId) interaction.providerMessageId = providerMessageId
  }
  async rememberEarlyStatus(providerMessageId: string, status: DeliveryStatus, at: Date) {
    for (const [id, early] of this.t.earlySmsStatuses) {
      if (early.at.getTime() < at.getTime() - EARLY_STATUS_KEPT_MS) this.t.earlySmsStatuses.delete(id)
    }
    this.t.earlySmsStatuses.set(providerMessageId, { status, at: new Date(at) })
  }
  async takeEarlyStatus(providerMessageId: string) {
    const early = this.t.earlySmsStatuses.get(providerMessageId)
    this.t.earlySmsStatuses.delete(providerMessageId)
    return early?.status
  }
}

class MemorySmsOptOutRepository extends MemoryRepository implements SmsOptOutRepository {
  private key(organizationId: string, phone: string) {
    return `${organizationId}|${phone}`
  }
  async isOptedOut(organizationId: string, phone: string) {
    return this.t.smsOptOuts.has(this.key(organizationId, phone))
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    if (!this.t.smsOptOuts.has(this.key(organizationId, phone))) this.t.smsOptOuts.set(this.key(organizationId, phone), at)
  }
  async optIn(organizationId: string, phone: string) {
    this.t.smsOptOuts.delete(this.key(organizationId, phone))
  }
}

function page<T>(items: T[], request: PageRequest): Page<T> {
  const start = offsetOf(request)
  return { items: items.slice(start, start + request.limit).map(copy), total: items.length }
}

class MemoryConstituentRepository extends MemoryRepository implements ConstituentRepository {
  async insert(c: Constituent) {
    this.t.constituents.set(c.id, copy(c))
  }
  async update(c: Constituent) {
    const stored = this.t.constituents.get(c.id)
    if (stored?.organizationId === c.organizationId) this.t.constituents.set(c.id, copy({ ...c, createdAt: stored.createdAt }))
  }
  async delete(organizationId: string, id: string) {
    if (this.t.constituents.get(id)?.organizationId === organizationId) this.t.constituents.delete(id)
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(this.t.constituents.get(id), organizationId)
  }
  private inOrganization(organizationId: string) {
    return [...this.t.constituents.values()].filter((c) => c.organizationId === organizationId)
  }
  async findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number) {
    const found = new Map<string, Constituent>()
    for (const key of Object.keys(keys) as Array<keyof MatchKeys>) {
      if (keys[key] === undefined) continue
      const same = this.inOrganization(organizationId).filter((c) => c.id !== excludeId && matchKeysOf(c)[key] === keys[key])
      for (const c of same.slice(0, limitPerKey)) found.set(c.id, copy(c))
    }
    return [...found.values()]
  }
  async search(organizationId: string, query: ConstituentQuery, request: PageRequest) {
    const matches = (c: Constituent) => {
      switch (query.kind) {
        case 'all':
          return true
        case 'email':
          return matchKeysOf(c).email === query.email
        case 'phone':
          return termsMatch(searchTermsOf(c), [query.digits])
        case 'words':
          return termsMatch(searchTermsOf(c), query.words)
      }
    }
    return page(this.inOrganization(organizationId).filter(matches).sort(newestFirst), request)
  }
  async listByHousehold(organizationId: string, householdId: string) {
    return this.inOrganization(organizationId)
      .filter((c) => c.householdId === householdId)
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async findByPhone(organizationId: string, phone: string) {
    return this.inOrganization(organizationId)
      .filter((c) => c.phone === phone)
      .sort(newestFirst)
      .map(copy)
  }
  async insertHousehold(h: Household) {
    this.t.households.set(h.id, copy(h))
  }
  async deleteHouseholdIfUnused(organizationId: string, householdId: string) {
    if (!inOrganization(this.t.households.get(householdId), organizationId)) return false
    const used =
      this.inOrganization(organizationId).some((c) => c.householdId === householdId) ||
      [...this.t.needs.values()].some((n) => n.organizationId === organizationId && n.householdId === householdId)
    if (used) return false
    this.t.households.delete(householdId)
    return true
  }
  async householdExists(organizationId: string, householdId: string) {
    return inOrganization(this.t.households.get(householdId), organizationId) !== undefined
  }
}

class MemoryHouseholdMatchRepository extends MemoryRepository implements HouseholdMatchRepository {
  async insert(m: HouseholdMatch) {
    this.t.householdMatches.set(m.id, copy(m))
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
      .filter((m) => m.organizationId === organizationId && (m.constituentId === constituentId || m.candidateConstituentId === constituentId))
      .sort((a, b) => -newestFirst(a, b))
      .map(copy)
  }
  async delete(organizationId: string, id: string) {
    if (this.t.householdMatches.get(id)?.organizationId === organizationId) this.t.householdMatches.delete(id)
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
  async recordFailure(email: string, address: string, at: Date) {
    this.t.loginFailures.push({ email, address, at })
  }
  async failuresSince(email: string, address: string, since: Date): Promise<LoginFailures> {
    const all = this.t.loginFailures.filter((f) => f.email === email && f.at >= since)
    const fromAddress = all.filter((f) => f.address === address)
    const oldest = (failures: typeof all) => (failures.length > 0 ? new Date(Math.min(...failures.map((f) => f.at.getTime()))) : undefined)
    const oldestFromAddress = oldest(fromAddress)
    const oldestOfAll = oldest(all)
    return {
      fromAddress: fromAddress.length,
      total: all.length,
      ...(oldestFromAddress ? { oldestFromAddress } : {}),
      ...(oldestOfAll ? { oldest: oldestOfAll } : {}),
    }
  }
  async clear(email: string, address: string) {
    this.t.loginFailures = this.t.loginFailures.filter((f) => f.email !== email || f.address !== address)
  }
}

class MemoryInvitationRepository extends MemoryRepository implements InvitationRepository {
  async insert(invitation: Invitation) {
    this.t.invitations.set(invitation.id, copy(invitation))
  }
  async findByDigest(tokenDigest: string) {
    return copy([...this.t.invitations.values()].find((i) => i.tokenDigest === tokenDigest))
  }
  async markUsed(id: string, at: Date) {
    const invitation = this.t.invitations.get(id)
    if (!invitation || invitation.usedAt) return false
    invitation.usedAt = at
    return true
  }
}

class MemoryEmailSettingsRepository extends MemoryRepository implements EmailSettingsRepository {
  async find(organizationId: string) {
    return copy(this.t.emailSettings.get(organizationId))
  }
  async save(settings: StoredEmailSettings) {
    this.t.emailSettings.set(settings.organizationId, copy(settings))
  }
}

class MemoryOutboxRepository extends MemoryRepository implements OutboxRepository {
  async enqueue(message: OutboxMessage) {
    this.t.outbox.set(message.id, copy(message))
  }
  async findById(id: string) {
    return copy(this.t.outbox.get(id))
  }
  private isDue(m: OutboxMessage, now: Date) {
    return (m.status === 'pending' && m.nextAttemptAt <= now) || (m.status === 'sending' && m.lockedUntil! <= now)
  }
  async organizationsWithDue(now: Date, limit: number) {
    return [...new Set([...this.t.outbox.values()].filter((m) => this.isDue(m, now)).map((m) => m.organizationId))].sort().slice(0, limit)
  }
  async countInFlight(organizationId: string, now: Date) {
    return [...this.t.outbox.values()].filter((m) => m.organizationId === organizationId && m.status === 'sending' && m.lockedUntil! > now).length
  }
  async claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date) {
    const due = [...this.t.outbox.values()]
      .filter((m) => m.organizationId === organizationId && this.isDue(m, now))
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, Math.max(0, limit))
    // Copies of the caller's dates: a record is stored as a value (memory-store.ts).
    for (const m of due) Object.assign(m, { status: 'sending', lockedUntil: new Date(lockedUntil), inFlightSince: m.inFlightSince ?? new Date(now) })
    return due.map(copy)
  }
  markSent(id: string, fence: Date, at: Date, providerMessageId: string | undefined) {
    return this.settle(id, fence, { status: 'sent', sentAt: at, providerMessageId })
  }
  reschedule(id: string, fence: Date, attempts: number, nextAttemptAt: Date, error: string, inDoubt = false) {
    return this.settle(id, fence, { status: 'pending', attempts, nextAttemptAt, lastError: error }, inDoubt)
  }
  markFailed(id: string, fence: Date, attempts: number, error: string) {
    return this.settle(id, fence, { status: 'failed', attempts, lastError: error })
  }
  /** Applies an outcome only while the claim `fence` still holds the message. */
  private async settle(id: string, fence: Date, fields: Partial<OutboxMessage>, keepInFlightSince = false) {
    const message = this.t.outbox.get(id)
    if (!message || message.status !== 'sending' || message.lockedUntil?.getTime() !== fence.getTime()) return false
    const inFlightSince = keepInFlightSince ? message.inFlightSince : undefined
    this.t.outbox.set(id, copy({ ...message, lockedUntil: undefined, ...fields, inFlightSince }))
    return true
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
    householdMatches: new MemoryHouseholdMatchRepository(store),
    refreshTokens: new MemoryRefreshTokenRepository(store),
    loginAttempts: new MemoryLoginAttemptRepository(store),
    invitations: new MemoryInvitationRepository(store),
    emailSettings: new MemoryEmailSettingsRepository(store),
    outbox: new MemoryOutboxRepository(store),
    smsOptOuts: new MemorySmsOptOutRepository(store),
  }
}
