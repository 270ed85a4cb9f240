import type { UnsentMessage } from '../../../domain/messaging/development-outbox'
import type { LiveEvent } from '../../../domain/webhooks/live-event'
import type { IdempotencyKeyRecord } from '../../../application/ports/repositories/idempotency-key-repository'
import type { RefreshTokenRecord } from '../../../application/ports/repositories/refresh-token-repository'
import type { AuditEvent } from '../../../domain/audit/audit-event'
import type { Constituent, Household } from '../../../domain/constituents/constituent'
import type { HouseholdMatch } from '../../../domain/constituents/household-match'
import type { Invitation } from '../../../domain/members/invitation'
import type { Member } from '../../../domain/members/member'
import type { SavedView } from '../../../domain/members/saved-view'
import type { StoredEmailSettings } from '../../../domain/messaging/email'
import type { OutboxMessage } from '../../../domain/messaging/outbox'
import type { DeliveryStatus } from '../../../domain/messaging/sms'
import type { Interaction } from '../../../domain/needs/interaction'
import type { Need, NeedChange } from '../../../domain/needs/need'
import type { Organization } from '../../../domain/organizations/organization'
import type { Partner } from '../../../domain/partners/partner'
import type { Service } from '../../../domain/services/service'
import type { TaxonomyTerm } from '../../../domain/services/taxonomy'
import type { WebhookEndpoint } from '../../../domain/webhooks/webhook'
import type { Referral } from '../../../domain/referrals/referral'
import type { FederationKey, PairingInvitation, ReferralPartner } from '../../../domain/federation/referral-partner'

/** An organization with what only its repository reads: its need sequence and its last retention run. */
export type StoredOrganization = Organization & { needSequence: number; retentionRanAt?: Date }

/** The tables of the in-memory adapter. Records are stored as copies so callers cannot alter them in place. */
export interface MemoryTables {
  organizations: Map<string, StoredOrganization>
  /** Every slug an organization holds or held → its id (a former slug stays its organization's). */
  organizationSlugs: Map<string, string>
  partners: Map<string, Partner>
  members: Map<string, Member>
  needs: Map<string, Need>
  /** Needs whose text retention cleared (need id → when), until they are written again. */
  needTextCleared: Map<string, Date>
  needChanges: NeedChange[]
  interactions: Interaction[]
  constituents: Map<string, Constituent>
  households: Map<string, Household>
  householdMatches: Map<string, HouseholdMatch>
  refreshTokens: Map<string, RefreshTokenRecord>
  loginFailures: Array<{ email: string; address: string; at: Date }>
  invitations: Map<string, Invitation>
  emailSettings: Map<string, StoredEmailSettings>
  outbox: Map<string, OutboxMessage>
  /** `organizationId|phone` → when it opted out. */
  smsOptOuts: Map<string, Date>
  /** `organizationId|phone` → when it was last answered HELP. */
  smsHelpAnswers: Map<string, Date>
  /** Provider message id → a delivery status that came before the send was recorded. */
  earlySmsStatuses: Map<string, { status: DeliveryStatus; at: Date }>
  webhookEndpoints: Map<string, WebhookEndpoint>
  auditEvents: AuditEvent[]
  liveEvents: LiveEvent[]
  /** The highest live event id given, purged or not. */
  liveEventsNumbered: number
  /** Member id → the local date of its last daily digest. */
  dailyDigests: Map<string, { organizationId: string; lastLocalDate: string }>
  /** `organizationId|caller|operation|keyHash` → the key as kept. */
  idempotencyKeys: Map<string, IdempotencyKeyRecord>
  savedViews: Map<string, SavedView>
  services: Map<string, Service>
  taxonomyTerms: Map<string, TaxonomyTerm>
  developmentOutbox: Map<string, UnsentMessage>
  referralPartners: Map<string, ReferralPartner>
  /** `organizationId/id` → that organization's side of the referral. */
  referrals: Map<string, Referral>
  federationKeys: Map<string, FederationKey>
  /** Secret digest → the invitation. */
  pairingInvitations: Map<string, PairingInvitation>
  /** `pairingId|messageId` → when it was received. */
  seenMessages: Map<string, Date>
}

export function emptyTables(): MemoryTables {
  return {
    organizations: new Map(),
    organizationSlugs: new Map(),
    partners: new Map(),
    members: new Map(),
    needs: new Map(),
    needTextCleared: new Map(),
    needChanges: [],
    interactions: [],
    constituents: new Map(),
    households: new Map(),
    householdMatches: new Map(),
    refreshTokens: new Map(),
    loginFailures: [],
    invitations: new Map(),
    emailSettings: new Map(),
    outbox: new Map(),
    smsOptOuts: new Map(),
    smsHelpAnswers: new Map(),
    earlySmsStatuses: new Map(),
    webhookEndpoints: new Map(),
    auditEvents: [],
    liveEvents: [],
    liveEventsNumbered: 0,
    dailyDigests: new Map(),
    idempotencyKeys: new Map(),
    savedViews: new Map(),
    services: new Map(),
    taxonomyTerms: new Map(),
    developmentOutbox: new Map(),
    referralPartners: new Map(),
    referrals: new Map(),
    federationKeys: new Map(),
    pairingInvitations: new Map(),
    seenMessages: new Map(),
  }
}

/** Holds a set of tables: the committed ones, or a transaction's draft that replaces them on commit. */
export class MemoryStore {
  constructor(public tables: MemoryTables = emptyTables()) {}
}

export function copy<T>(value: T): T {
  return structuredClone(withoutUndefined(value))
}

/** A record's optional fields given as `undefined` are kept absent, as SQL drops its NULLs (docs/api/conventions.md "Errors"). */
function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T
}
