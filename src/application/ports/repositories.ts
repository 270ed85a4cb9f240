import type { Member } from '../../domain/members/member'
import type { Interaction } from '../../domain/needs/interaction'
import type { Need, NeedChange, NeedStatus } from '../../domain/needs/need'
import type { Organization } from '../../domain/organizations/organization'
import type { Partner } from '../../domain/partners/partner'
import type { Page, PageRequest } from '../../domain/shared/page'

/**
 * The persistence ports. Every read and write names the organization it belongs to: a repository never
 * returns another organization's record. Any SQL database (or memory) can serve them.
 */
export interface OrganizationRepository {
  insert(organization: Organization): Promise<void>
  findById(id: string): Promise<Organization | undefined>
  findBySlug(slug: string): Promise<Organization | undefined>
  findByShortCode(shortCode: string): Promise<Organization | undefined>
  count(): Promise<number>
  /** Takes the organization's next need number (starting at FIRST_REFERENCE_NUMBER); safe under concurrency. */
  takeNextNeedNumber(organizationId: string): Promise<number>
}

export interface PartnerRepository {
  insert(partner: Partner): Promise<void>
  update(partner: Partner): Promise<void>
  findById(organizationId: string, id: string): Promise<Partner | undefined>
  /** Every partner of the organization, oldest first (routing order). */
  listAll(organizationId: string): Promise<Partner[]>
  /** Clears `isDefault` on every partner of the organization but `keepId`. */
  clearDefaultExcept(organizationId: string, keepId: string): Promise<void>
}

export interface MemberRepository {
  insert(member: Member): Promise<void>
  update(member: Member): Promise<void>
  findById(organizationId: string, id: string): Promise<Member | undefined>
  /** The members with this (normalized) email, across organizations: login's lookup. */
  findAllByEmail(email: string): Promise<Member[]>
  findByEmail(organizationId: string, email: string): Promise<Member | undefined>
}

/** Filters of a need list; `partnerId` doubles as the scope of partner roles. */
export interface NeedFilter {
  statuses?: NeedStatus[]
  partnerId?: string
  assignedTo?: string
  constituentId?: string
}

export interface NeedRepository {
  insert(need: Need): Promise<void>
  update(need: Need): Promise<void>
  findById(organizationId: string, id: string): Promise<Need | undefined>
  findByReferenceNumber(organizationId: string, referenceNumber: string): Promise<Need | undefined>
  /** Newest `createdAt` first, `id` as tie-break. */
  list(organizationId: string, filter: NeedFilter, page: PageRequest): Promise<Page<Need>>
  appendChanges(changes: NeedChange[]): Promise<void>
  listChanges(organizationId: string, needId: string): Promise<NeedChange[]>
}

export interface InteractionRepository {
  insert(interaction: Interaction): Promise<void>
  /** Oldest first. */
  listByNeed(organizationId: string, needId: string): Promise<Interaction[]>
}

/** The existence checks needs make on references; constituents and households grow in their own issue. */
export interface ConstituentRepository {
  /** The constituent's household id, when the constituent exists in the organization. */
  findHouseholdOf(organizationId: string, constituentId: string): Promise<string | undefined>
  householdExists(organizationId: string, householdId: string): Promise<boolean>
}

/** A refresh token, kept only as a hash; tokens rotated from one login share a family. */
export interface RefreshTokenRecord {
  id: string
  familyId: string
  memberId: string
  organizationId: string
  tokenHash: string
  createdAt: Date
  expiresAt: Date
  rotatedAt?: Date
  revokedAt?: Date
}

export interface RefreshTokenRepository {
  insert(token: RefreshTokenRecord): Promise<void>
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>
  /** Marks the token rotated; false when it already was (a concurrent or replayed use). */
  markRotated(id: string, at: Date): Promise<boolean>
  revokeFamily(familyId: string, at: Date): Promise<void>
}

/** Failed logins per email, kept in the database so throttling holds across restarts and instances. */
export interface LoginAttemptRepository {
  recordFailure(email: string, at: Date): Promise<void>
  countFailuresSince(email: string, since: Date): Promise<number>
  /** The oldest failure at or after `since`: when the window frees up. */
  oldestFailureSince(email: string, since: Date): Promise<Date | undefined>
  clear(email: string): Promise<void>
}

export interface Repositories {
  organizations: OrganizationRepository
  partners: PartnerRepository
  members: MemberRepository
  needs: NeedRepository
  interactions: InteractionRepository
  constituents: ConstituentRepository
  refreshTokens: RefreshTokenRepository
  loginAttempts: LoginAttemptRepository
}
