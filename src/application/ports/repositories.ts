import type { AuditEvent, AuditFilter } from '../../domain/audit/audit-event'
import type { Constituent, Household } from '../../domain/constituents/constituent'
import type { HouseholdMatch, MatchStatus } from '../../domain/constituents/household-match'
import type { MatchKeys } from '../../domain/constituents/matching'
import type { ConstituentQuery } from '../../domain/constituents/search'
import type { LoginFailures } from '../../domain/auth/login-throttle'
import type { Role } from '../../domain/auth/roles'
import type { Invitation } from '../../domain/members/invitation'
import type { Member } from '../../domain/members/member'
import type { StoredEmailSettings } from '../../domain/messaging/email'
import type { ClaimedOutboxMessage, OutboxMessage } from '../../domain/messaging/outbox'
import type { DeliveryStatus } from '../../domain/messaging/sms'
import type { Tally } from '../../domain/messaging/send-limits'
import type { Interaction } from '../../domain/needs/interaction'
import type { Need, NeedChange, NeedStatus } from '../../domain/needs/need'
import type { Organization } from '../../domain/organizations/organization'
import type { Partner } from '../../domain/partners/partner'
import type { Keyset, Page, PageRequest } from '../../domain/shared/page'
import type { WebhookEndpoint, WebhookEventType } from '../../domain/webhooks/webhook'

/**
 * The persistence ports. Every read and write names the organization it belongs to: a repository never
 * returns another organization's record. Any SQL database (or memory) can serve them.
 */
/** What a ConflictError says when a write would break a uniqueness rule: the same words from every store. */
export const UNIQUE_CONFLICTS = {
  organizationSlug: 'The slug is taken by another organization',
  organizationShortCode: 'The short code is taken by another organization',
  organizationPhoneNumber: 'The phone number belongs to another organization',
  memberEmail: 'A member with this email already exists in the organization',
  providerMessageId: 'Another interaction already has this provider message id',
} as const

export interface OrganizationRepository {
  insert(organization: Organization): Promise<void>
  findById(id: string): Promise<Organization | undefined>
  findBySlug(slug: string): Promise<Organization | undefined>
  /** The organization whose SMS number this is (inbound messages). */
  findByPhoneNumber(phoneNumber: string): Promise<Organization | undefined>
  findByShortCode(shortCode: string): Promise<Organization | undefined>
  count(): Promise<number>
  /** Saves name, slug, short code, concurrency, registration status, phone number; a taken one is a ConflictError. */
  update(organization: Organization): Promise<void>
  /**
   * Holds the organization's row until the transaction ends, so what is counted next (its live claims, its
   * admins) cannot change under a concurrent transaction. A no-op where transactions are serial already.
   */
  lockForUpdate(id: string): Promise<void>
  /**
   * Takes the organization's next need number (starting at FIRST_REFERENCE_NUMBER; safe under concurrency)
   * with its short code, the two parts of a reference number, in one step; undefined for no organization.
   */
  takeNextNeedReference(organizationId: string): Promise<{ number: number; shortCode?: string } | undefined>
  /** Every organization with the retention it chose (absent: the default), for the audit purge. */
  auditRetentions(): Promise<Array<{ organizationId: string; auditRetentionDays?: number }>>
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

export interface MemberFilter {
  partnerId?: string
  /** true: members not deactivated; false: deactivated ones. */
  active?: boolean
}

export interface MemberRepository {
  insert(member: Member): Promise<void>
  update(member: Member): Promise<void>
  findById(organizationId: string, id: string): Promise<Member | undefined>
  /**
   * The member, only while the session `sessionId` (its refresh-token family) has a token not revoked.
   * Every authenticated request makes this lookup: one statement, kept prepared.
   */
  findInSession(organizationId: string, id: string, sessionId: string): Promise<Member | undefined>
  /** The members with this (normalized) email, across organizations: login's lookup. */
  findAllByEmail(email: string): Promise<Member[]>
  findByEmail(organizationId: string, email: string): Promise<Member | undefined>
  /** Newest first, `id` as tie-break; `partnerId` narrows to one partner's members, `active` to the active or deactivated ones. */
  list(organizationId: string, filter: MemberFilter, page: PageRequest): Promise<Page<Member>>
  /** Members who may sign in only: an invitation nobody accepted, or a deactivated member, cannot run the organization. */
  countSigningInByRole(organizationId: string, role: Role): Promise<number>
}

export interface InvitationRepository {
  insert(invitation: Invitation): Promise<void>
  findByDigest(tokenDigest: string): Promise<Invitation | undefined>
  /** Marks it used; false when it already was (a second use of the same link). */
  markUsed(id: string, at: Date): Promise<boolean>
  /** Marks every link of the member not used yet as used: a deactivated member's links die with its access. */
  voidUnused(organizationId: string, memberId: string, at: Date): Promise<void>
}

export interface EmailSettingsRepository {
  find(organizationId: string): Promise<StoredEmailSettings | undefined>
  /** Creates or replaces the organization's settings. */
  save(settings: StoredEmailSettings): Promise<void>
}

/**
 * The outbox is read across organizations by the dispatcher; each message still names its organization.
 * A claim makes messages `sending` until its `lockedUntil`, which also fences the outcome: an outcome
 * applies only while that claim still holds the message, so a worker that outlived its lease cannot
 * overwrite what the next one did.
 */
export interface OutboxRepository {
  enqueue(message: OutboxMessage): Promise<void>
  findById(id: string): Promise<OutboxMessage | undefined>
  /** Organizations with messages due by `now`: pending ones whose time has come, or claims that lapsed. */
  organizationsWithDue(now: Date, limit: number): Promise<string[]>
  /** Messages of the organization under a live claim: in flight, counted against its concurrency cap. */
  countInFlight(organizationId: string, now: Date): Promise<number>
  /**
   * Claims up to `limit` due messages of the organization, oldest first; they become `sending` until
   * `lockedUntil`. A pending one starts its attempt now (`inFlightSince`); a lapsed one keeps the time its
   * interrupted attempt began.
   */
  claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date): Promise<ClaimedOutboxMessage[]>
  /** Each answers false, changing nothing, when the claim `fence` no longer holds the message. */
  markSent(id: string, fence: Date, at: Date, providerMessageId: string | undefined, responseStatus?: number): Promise<boolean>
  /**
   * Back to pending after a retryable failure. With `inDoubt` the attempt's `inFlightSince` is kept: nobody
   * knows whether it reached the provider, so the next try asks first.
   */
  reschedule(id: string, fence: Date, attempts: number, nextAttemptAt: Date, error: string, inDoubt?: boolean, responseStatus?: number): Promise<boolean>
  markFailed(id: string, fence: Date, attempts: number, error: string, responseStatus?: number): Promise<boolean>
  /** The messages (deliveries) of one webhook endpoint of the organization, newest first, `id` as tie-break. */
  listWebhookDeliveries(organizationId: string, endpointId: string, page: PageRequest): Promise<Page<OutboxMessage>>
  /** What waits, across organizations (monitoring): messages pending or being sent, and the oldest one's age. */
  backlog(): Promise<OutboxBacklog>
}

export interface OutboxBacklog {
  pending: number
  sending: number
  /** When the oldest message not yet sent or failed was queued; absent when none waits. */
  oldestQueuedAt?: Date
}

export interface WebhookEndpointRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>
  /** Saves url, events, enabled, the failure count and `disabledAt`. */
  update(endpoint: WebhookEndpoint): Promise<void>
  /** False when the organization has no such endpoint. */
  delete(organizationId: string, id: string): Promise<boolean>
  findById(organizationId: string, id: string): Promise<WebhookEndpoint | undefined>
  /** Newest first, `id` as tie-break. */
  list(organizationId: string, page: PageRequest): Promise<Page<WebhookEndpoint>>
  count(organizationId: string): Promise<number>
  /** The organization's enabled endpoints that subscribe to `type`, oldest first. */
  subscribedTo(organizationId: string, type: WebhookEventType): Promise<WebhookEndpoint[]>
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
  /** Up to `limit` needs matching `filter` after `after` (from the start without it), in list order: an export's batch. */
  listAfter(organizationId: string, filter: NeedFilter, after: Keyset | undefined, limit: number): Promise<Need[]>
  appendChanges(changes: NeedChange[]): Promise<void>
  /** Oldest first, in the order they were appended. */
  listChanges(organizationId: string, needId: string, page: PageRequest): Promise<Page<NeedChange>>
  /** Points every need of one constituent at another (a merge) and at its household. */
  moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string): Promise<void>
  /** Points every need of the constituent at its (new) household. */
  setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string): Promise<void>
  /** The newest needs (at most 20) of any of these constituents, newest first; with `openOnly`, not RESOLVED ones. */
  newestOfConstituents(organizationId: string, constituentIds: string[], openOnly?: boolean): Promise<Need[]>
}

export interface InteractionRepository {
  insert(interaction: Interaction): Promise<void>
  /** Oldest first (`createdAt`, `id` as tie-break), one page of them. */
  listByNeed(organizationId: string, needId: string, page: PageRequest): Promise<Page<Interaction>>
  findById(organizationId: string, id: string): Promise<Interaction | undefined>
  /** Across organizations: provider callbacks name only the provider's id. */
  findByProviderMessageId(providerMessageId: string): Promise<Interaction | undefined>
  setDelivery(organizationId: string, id: string, status: DeliveryStatus, providerMessageId: string | undefined): Promise<void>
  /**
   * Keeps a status the provider reported before its send was recorded (the callback raced the answer);
   * forgets those older than a day, which no send will claim any more.
   */
  rememberEarlyStatus(providerMessageId: string, status: DeliveryStatus, at: Date): Promise<void>
  /** The status kept for this provider message, removed as it is taken. */
  takeEarlyStatus(providerMessageId: string): Promise<DeliveryStatus | undefined>
  /** The organization's outbound texts at or after `since` on needs of constituents with this phone (send limits). */
  tallyTextsTo(organizationId: string, phone: string, since: Date): Promise<Tally>
}

export interface SmsOptOutRepository {
  isOptedOut(organizationId: string, phone: string): Promise<boolean>
  optOut(organizationId: string, phone: string, at: Date): Promise<void>
  optIn(organizationId: string, phone: string): Promise<void>
}

export interface ConstituentRepository {
  insert(constituent: Constituent): Promise<void>
  update(constituent: Constituent): Promise<void>
  delete(organizationId: string, id: string): Promise<void>
  findById(organizationId: string, id: string): Promise<Constituent | undefined>
  /** The constituents of the organization with these ids, in no order; unknown ids are left out. One query. */
  findByIds(organizationId: string, ids: readonly string[]): Promise<Constituent[]>
  /**
   * Constituents sharing at least one of the keys, the one with `excludeId` left out; at most `limitPerKey`
   * per key. Each key is an indexed lookup, so the cost does not grow with the number of constituents.
   */
  findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number): Promise<Constituent[]>
  /** Matching as `parseConstituentQuery` describes; newest first, `id` as tie-break. */
  search(organizationId: string, query: ConstituentQuery, page: PageRequest): Promise<Page<Constituent>>
  /** Up to `limit` constituents matching `query` after `after` (from the start without it), in list order: an export's batch. */
  searchAfter(organizationId: string, query: ConstituentQuery, after: Keyset | undefined, limit: number): Promise<Constituent[]>
  listByHousehold(organizationId: string, householdId: string): Promise<Constituent[]>
  /** The constituents with this E.164 phone (indexed). */
  findByPhone(organizationId: string, phone: string): Promise<Constituent[]>
  insertHousehold(household: Household): Promise<void>
  /** Removes a household that no constituent and no need points at any more; false when one still does. */
  deleteHouseholdIfUnused(organizationId: string, householdId: string): Promise<boolean>
  householdExists(organizationId: string, householdId: string): Promise<boolean>
}

export interface HouseholdMatchRepository {
  insert(match: HouseholdMatch): Promise<void>
  update(match: HouseholdMatch): Promise<void>
  findById(organizationId: string, id: string): Promise<HouseholdMatch | undefined>
  /** Newest first, `id` as tie-break. */
  list(organizationId: string, status: MatchStatus | undefined, page: PageRequest): Promise<Page<HouseholdMatch>>
  /** Every match naming the constituent on either side. */
  listInvolving(organizationId: string, constituentId: string): Promise<HouseholdMatch[]>
  delete(organizationId: string, id: string): Promise<void>
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
  /** Ends every session of a member (a password reset): its access tokens stop working with them. */
  revokeMember(organizationId: string, memberId: string, at: Date): Promise<void>
}

/**
 * Failed logins per email and client address, kept in the database so throttling holds across restarts
 * and instances. Emails are the login's (normalized) identity, across organizations.
 */
export interface LoginAttemptRepository {
  recordFailure(email: string, clientAddress: string, at: Date): Promise<void>
  /** The email's failures at or after `since`, from `clientAddress` and from all, each with its oldest: one query. */
  failuresSince(email: string, clientAddress: string, since: Date): Promise<LoginFailures>
  /** Forgets the email's failures from `clientAddress` (a success there); those from elsewhere still count. */
  clear(email: string, clientAddress: string): Promise<void>
}

/**
 * The audit trail is append-only: nothing updates an event, and the only deletion is the retention purge.
 * Events are written in the transaction of what they record, so a rollback takes them back too.
 */
export interface AuditEventRepository {
  /** Appends the events in one statement. */
  append(events: readonly AuditEvent[]): Promise<void>
  /** The organization's events matching `filter`, newest `at` first, `id` as tie-break. */
  list(organizationId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEvent>>
  /** How many of the organization's events match `filter`, and the oldest one's time (send limits). */
  tally(organizationId: string, filter: AuditFilter): Promise<Tally>
  /**
   * Deletes up to `limit` of the organization's events older than `before` (retention), so one transaction
   * never holds the database long; answers how many went.
   */
  purge(organizationId: string, before: Date, limit: number): Promise<number>
}

export interface Repositories {
  organizations: OrganizationRepository
  partners: PartnerRepository
  members: MemberRepository
  needs: NeedRepository
  interactions: InteractionRepository
  constituents: ConstituentRepository
  householdMatches: HouseholdMatchRepository
  refreshTokens: RefreshTokenRepository
  loginAttempts: LoginAttemptRepository
  invitations: InvitationRepository
  emailSettings: EmailSettingsRepository
  outbox: OutboxRepository
  smsOptOuts: SmsOptOutRepository
  webhookEndpoints: WebhookEndpointRepository
  auditEvents: AuditEventRepository
}
