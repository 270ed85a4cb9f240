import { sql } from 'drizzle-orm'
import type { UnsentMessage } from '../../../domain/messaging/development-outbox'
import type { SavedViewFilters } from '../../../domain/members/saved-view'
import type { OpeningHours } from '../../../domain/services/schedule'
import type { ServiceAddress } from '../../../domain/services/service'
import type { TermReference } from '../../../domain/services/taxonomy'
import type { QuickReply } from '../../../domain/organizations/quick-replies'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

// The SQLite shape of the data. Thin on purpose: the rules live in the domain, not here.
// Times are UTC milliseconds; JSON columns hold arrays and free objects.
const createdAt = () => integer('created_at', { mode: 'timestamp_ms' }).notNull()

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  shortCode: text('short_code').unique(),
  maxConcurrency: integer('max_concurrency').notNull(),
  tcrStatus: text('tcr_status'),
  /** The number texts come from and arrive at; inbound messages find their organization by it. */
  phoneNumber: text('phone_number').unique(),
  /** Days audit events are kept; NULL: the default (docs/audit.md). */
  auditRetentionDays: integer('audit_retention_days'),
  /** Days a person with no need activity is kept before being erased (docs/privacy.md); NULL: kept. */
  constituentRetentionDays: integer('constituent_retention_days'),
  /** Days a resolved need keeps its free text (docs/privacy.md); NULL: kept. */
  needTextRetentionDays: integer('need_text_retention_days'),
  /** When a worker last claimed the organization's retention run: one run per period across instances. */
  retentionRanAt: integer('retention_ran_at', { mode: 'timestamp_ms' }),
  /** Origins an admin may point invitation links at; NULL: none (docs/api/organization.md "Organization settings"). */
  appOrigins: text('app_origins', { mode: 'json' }).$type<string[]>(),
  /** Origins of partner sites whose pages may post the public intake; NULL: none. */
  formOrigins: text('form_origins', { mode: 'json' }).$type<string[]>(),
  /** The local hour (0 to 23) of the daily digest, in the organization's time zone; NULL: the default (docs/api/organization.md "Notifications"). */
  digestHour: integer('digest_hour'),
  /**
   * The IANA time zone of the organization's days (the digest's hour, the reports' days); NULL: UTC. The column
   * keeps the name it had when only the digest read it.
   */
  timeZone: text('digest_time_zone'),
  /** Whether the person who asked through the public intake is sent a confirmation; NULL: no. */
  confirmRequests: integer('confirm_requests', { mode: 'boolean' }),
  /** The country whose national phone numbers its people type (ISO 3166-1 alpha-2); US for those made before it. */
  defaultCountry: text('default_country').notNull().default('US'),
  /** The organization's saved replies to texts (docs/api/organization.md "Quick replies"); NULL: none. */
  quickReplies: text('quick_replies', { mode: 'json' }).$type<QuickReply[]>(),
  /** What the organization does, in its own words (docs/api/organization.md); NULL: none. */
  description: text('description'),
  /** Whether its directory is published as HSDS 3.0 under /hsds/{slug} (docs/directory.md); NULL: no. */
  publishDirectory: integer('publish_directory', { mode: 'boolean' }),
  /** The last need number taken; the next need gets this plus one. */
  needSequence: integer('need_sequence').notNull(),
  createdAt: createdAt(),
})

/**
 * Every slug an organization holds or has held, its current one too: its key keeps a former slug the organization's,
 * so no other may take it and its old links still lead to it (docs/api/organization.md "Organization settings").
 */
export const organizationSlugs = sqliteTable('organization_slugs', {
  slug: text('slug').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
})

export const partners = sqliteTable(
  'partners',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    slaHours: integer('sla_hours').notNull(),
    isArchived: integer('is_archived', { mode: 'boolean' }).notNull(),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull(),
    description: text('description'),
    keywords: text('keywords', { mode: 'json' }).$type<string[]>(),
    website: text('website'),
    publicCategoryName: text('public_category_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('partners_by_organization').on(t.organizationId, t.createdAt, t.id),
    // At most one default partner per organization, kept by the database itself.
    uniqueIndex('partners_one_default').on(t.organizationId).where(sql`${t.isDefault} = 1`),
  ],
)

export const members = sqliteTable(
  'members',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    email: text('email').notNull(),
    fullName: text('full_name'),
    role: text('role').notNull(),
    partnerId: text('partner_id').references(() => partners.id),
    profiles: text('profiles', { mode: 'json' }).$type<string[]>().notNull(),
    isConfirmed: integer('is_confirmed', { mode: 'boolean' }).notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    deactivatedAt: integer('deactivated_at', { mode: 'timestamp_ms' }),
    notifications: text('notifications', { mode: 'json' }).$type<Partial<Record<string, boolean>>>(),
    language: text('language'),
    lastLoginAt: integer('last_login_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('members_email_per_organization').on(t.organizationId, t.email), index('members_by_email').on(t.email)],
)

/**
 * The local date (`YYYY-MM-DD`, in the organization's digest time zone) of each member's last daily digest,
 * taken in the transaction that queues the mail: one digest per member and day, whichever worker runs it.
 */
export const dailyDigests = sqliteTable('daily_digests', {
  memberId: text('member_id')
    .primaryKey()
    .references(() => members.id),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
  lastLocalDate: text('last_local_date').notNull(),
})

export const households = sqliteTable(
  'households',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    createdAt: createdAt(),
  },
  (t) => [index('households_by_organization').on(t.organizationId)],
)

export const constituents = sqliteTable(
  'constituents',
  {
    /** A stable integer key for the full-text index (a plain rowid may change on VACUUM). */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    householdId: text('household_id')
      .notNull()
      .references(() => households.id),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phone: text('phone'),
    email: text('email'),
    addressStreet: text('address_street'),
    addressCity: text('address_city'),
    addressState: text('address_state'),
    addressZip: text('address_zip'),
    dateOfBirth: text('date_of_birth'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    /** When the person's details were erased (docs/privacy.md); every contact field is then NULL. */
    erasedAt: integer('erased_at', { mode: 'timestamp_ms' }),
    // Duplicate-detection keys (src/domain/constituents/matching.ts), each indexed per organization.
    emailKey: text('email_key'),
    nameBirthKey: text('name_birth_key'),
    lastStreetKey: text('last_street_key'),
    /** Name words (src/domain/constituents/search.ts), each behind its organization's mark, fed to the constituent_search FTS5 index. */
    searchTerms: text('search_terms').notNull(),
    /** Every ending of the phone's digits behind the organization's mark (a phone found by any part of it), in constituent_search too. */
    phoneTerms: text('phone_terms').notNull().default(''),
  },
  (t) => [
    index('constituents_newest').on(t.organizationId, t.createdAt, t.id),
    index('constituents_by_household').on(t.organizationId, t.householdId),
    // The contact first: what one person was sent is counted across organizations too (the deployment's cap,
    // docs/api/needs.md "Public intake"); an organization's own lookups name both columns.
    index('constituents_by_phone').on(t.phone, t.organizationId),
    index('constituents_by_email').on(t.emailKey, t.organizationId),
    index('constituents_by_name_birth').on(t.organizationId, t.nameBirthKey),
    index('constituents_by_last_street').on(t.organizationId, t.lastStreetKey),
    // Retention finds the people not erased whose record has not changed for long (docs/privacy.md).
    index('constituents_idle').on(t.organizationId, t.erasedAt, t.updatedAt),
  ],
)

export const householdMatches = sqliteTable(
  'household_matches',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    constituentId: text('constituent_id').notNull(),
    candidateConstituentId: text('candidate_constituent_id').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull(),
    createdAt: createdAt(),
    resolvedAt: integer('resolved_at', { mode: 'timestamp_ms' }),
    resolvedBy: text('resolved_by'),
    action: text('action'),
  },
  (t) => [
    index('household_matches_newest').on(t.organizationId, t.createdAt, t.id),
    index('household_matches_by_status').on(t.organizationId, t.status, t.createdAt, t.id),
    index('household_matches_by_constituent').on(t.organizationId, t.constituentId),
    index('household_matches_by_candidate').on(t.organizationId, t.candidateConstituentId),
  ],
)

export const needs = sqliteTable(
  'needs',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id),
    status: text('status').notNull(),
    customFields: text('custom_fields', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    isConfidential: integer('is_confidential', { mode: 'boolean' }).notNull(),
    parentNeedId: text('parent_need_id'),
    assignedTo: text('assigned_to').references(() => members.id),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    dueDate: integer('due_date', { mode: 'timestamp_ms' }),
    dueDateSetByHand: integer('due_date_set_by_hand', { mode: 'boolean' }).notNull().default(false),
    resolvedAt: integer('resolved_at', { mode: 'timestamp_ms' }),
    constituentId: text('constituent_id').references(() => constituents.id),
    householdId: text('household_id').references(() => households.id),
    duplicateWarning: text('duplicate_warning'),
    referenceNumber: text('reference_number').notNull(),
    /** When retention cleared a resolved need's free text; NULL again on any change (docs/privacy.md). */
    textClearedAt: integer('text_cleared_at', { mode: 'timestamp_ms' }),
    /** An inbound text came to a need that was resolved, or whose texts nobody has answered since (docs/api/needs.md); NULL when not. */
    needsAttention: integer('needs_attention', { mode: 'boolean' }),
  },
  (t) => [
    uniqueIndex('needs_reference_per_organization').on(t.organizationId, t.referenceNumber),
    // One index per list filter, each ending in the list order, so a page never sorts the whole table.
    index('needs_newest').on(t.organizationId, t.createdAt, t.id),
    index('needs_by_partner').on(t.organizationId, t.partnerId, t.createdAt, t.id),
    index('needs_by_status').on(t.organizationId, t.status, t.createdAt, t.id),
    // Only the needs that have one: a new need (most often with no assignee or person yet) writes three
    // index entries fewer, and a lookup by an assignee, a person or a household (an equality, so never NULL)
    // reads the same entries.
    index('needs_by_assignee').on(t.organizationId, t.assignedTo, t.createdAt, t.id).where(sql`${t.assignedTo} IS NOT NULL`),
    index('needs_by_constituent').on(t.organizationId, t.constituentId, t.createdAt, t.id).where(sql`${t.constituentId} IS NOT NULL`),
    index('needs_by_household').on(t.organizationId, t.householdId).where(sql`${t.householdId} IS NOT NULL`),
    // Open needs by due date (`isOpenAndDueBefore`): the overdue list and the reports' overdue counts, which
    // group by partner and status and so read the index alone.
    index('needs_open_by_due').on(t.organizationId, t.dueDate, t.partnerId, t.status).where(sql`${t.status} <> 'RESOLVED'`),
    // Retention finds resolved needs whose free text is still there and has not changed for long: those
    // alone, so that a need enters it when it is resolved, not when it is made.
    index('needs_text_retention').on(t.organizationId, t.updatedAt).where(sql`${t.status} = 'RESOLVED' AND ${t.textClearedAt} IS NULL`),
    // The daily digest's unassigned open needs, oldest first, of the organization or of one partner: few rows,
    // however many needs were resolved. `assigned_to` (always NULL here) makes each SQLite's choice over
    // needs_by_assignee and needs_by_partner, which hold every need; the query orders by it too.
    index('needs_unassigned_open')
      .on(t.organizationId, t.assignedTo, t.createdAt, t.id)
      .where(sql`${t.assignedTo} IS NULL AND ${t.status} <> 'RESOLVED'`),
    index('needs_unassigned_open_by_partner')
      .on(t.organizationId, t.partnerId, t.assignedTo, t.createdAt, t.id)
      .where(sql`${t.assignedTo} IS NULL AND ${t.status} <> 'RESOLVED'`),
    // The few needs marked for attention (`?attention=true`), newest first.
    index('needs_needing_attention').on(t.organizationId, t.createdAt, t.id).where(sql`${t.needsAttention}`),
  ],
)

// The kept counts below (need_counts to constituent_counts) are WITHOUT ROWID, stored in their keys' order
// (migration 0022), which drizzle-kit cannot write: a migration that makes one of them again must say it
// itself (tests/adapters/persistence/sqlite-kept-counts.test.ts fails otherwise).

/**
 * How many needs each organization has per partner and status, kept by triggers in the same transaction as
 * every insert and change of a need, so a list's total is a sum of a few rows, however many needs there are.
 */
export const needCounts = sqliteTable(
  'need_counts',
  {
    organizationId: text('organization_id').notNull(),
    partnerId: text('partner_id').notNull(),
    status: text('status').notNull(),
    needs: integer('needs').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.partnerId, t.status] })],
)

/**
 * The words needs are searched by (docs/api/needs.md "Search and sort"), one row per word of a need and kind
 * (`NeedTermKind`: reference, description, name; a confidential need's apart), written by the need
 * repository with the need, replaced when its text changes and removed with it. A word prefix is a range of
 * the primary key within the organization. WITHOUT ROWID (set in the migration; drizzle-kit cannot say it): a row is
 * one entry of its key's b-tree.
 */
export const needTerms = sqliteTable(
  'need_terms',
  {
    organizationId: text('organization_id').notNull(),
    term: text('term').notNull(),
    kind: text('kind').notNull(),
    needId: text('need_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.term, t.kind, t.needId] }), index('need_terms_by_need').on(t.needId, t.term)],
)

/**
 * The needs on file when need_terms came (migration need_search) whose text is still to be indexed: the
 * worker indexes them a batch at a time and removes them (docs/api/needs.md "Search and sort"); any write of
 * a need removes it first, as that write indexes its text.
 */
export const needTermsBacklog = sqliteTable('need_terms_backlog', {
  needId: text('need_id').primaryKey(),
})

/**
 * Needs opened and resolved per organization, partner and UTC day (YYYY-MM-DD), kept by triggers in the same
 * transaction as every insert and change of a need: a need counts as opened on its creation day and as
 * resolved on the day of its resolution while it stays resolved, both under its current partner. The
 * reports read a period from here instead of scanning needs (docs/api/needs.md "Reports").
 */
export const needDays = sqliteTable(
  'need_days',
  {
    organizationId: text('organization_id').notNull(),
    day: text('day').notNull(),
    partnerId: text('partner_id').notNull(),
    opened: integer('opened').notNull(),
    resolved: integer('resolved').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.partnerId] })],
)

/**
 * A histogram of resolve times: how many of the needs resolved on a day (as `need_days` counts them) took
 * each number of whole hours from creation, per partner, kept by the same triggers. A period's median is
 * read from the sum of its days' histograms.
 */
export const needResolveHours = sqliteTable(
  'need_resolve_hours',
  {
    organizationId: text('organization_id').notNull(),
    day: text('day').notNull(),
    partnerId: text('partner_id').notNull(),
    hours: integer('hours').notNull(),
    needs: integer('needs').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.partnerId, t.hours] })],
)

/**
 * The same histogram per calendar month (YYYY-MM, the month of the resolution's day), kept by the same
 * triggers: a period's whole months are read from here, only the days at its ends from `need_resolve_hours`,
 * so a year is at most twelve months of a partner's distinct whole hours instead of 365 days of them.
 */
export const needResolveMonths = sqliteTable(
  'need_resolve_months',
  {
    organizationId: text('organization_id').notNull(),
    month: text('month').notNull(),
    partnerId: text('partner_id').notNull(),
    hours: integer('hours').notNull(),
    needs: integer('needs').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month, t.partnerId, t.hours] })],
)

/**
 * Open needs (not RESOLVED) with a due date, per organization, week of that date (its Monday, UTC),
 * partner and status, kept by the same triggers: how many needs are due before a time is the sum of the
 * whole weeks before its week, plus the needs of its own week counted on the index `needs_open_by_due`
 * (docs/api/needs.md "Reports"). Weeks, not days: a few rows per partner for each week of open due dates.
 */
export const needDueWeeks = sqliteTable(
  'need_due_weeks',
  {
    organizationId: text('organization_id').notNull(),
    dueWeek: text('due_week').notNull(),
    partnerId: text('partner_id').notNull(),
    status: text('status').notNull(),
    needs: integer('needs').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.dueWeek, t.partnerId, t.status] })],
)

/**
 * Open needs (not RESOLVED) with a due date, per organization, partner and status, whatever the date, kept
 * by the same triggers: the needs due before a week are these less the weeks from it on in `need_due_weeks`,
 * a few weeks ahead, where summing the weeks before it would read every week since the first due date.
 */
export const needDueTotals = sqliteTable(
  'need_due_totals',
  {
    organizationId: text('organization_id').notNull(),
    partnerId: text('partner_id').notNull(),
    status: text('status').notNull(),
    needs: integer('needs').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.partnerId, t.status] })],
)

/**
 * How many constituents each organization has, kept by triggers in the same transaction as every insert and
 * delete of a constituent, so the total of the constituents list is one row, however many people there are.
 */
export const constituentCounts = sqliteTable('constituent_counts', {
  organizationId: text('organization_id').primaryKey(),
  constituents: integer('constituents').notNull(),
})

export const needChanges = sqliteTable(
  'need_changes',
  {
    /** Keeps the order changes were appended in, also within one millisecond. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    needId: text('need_id')
      .notNull()
      .references(() => needs.id),
    field: text('field').notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    changedBy: text('changed_by'),
    changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('need_changes_by_need').on(t.organizationId, t.needId, t.seq)],
)

export const interactions = sqliteTable(
  'interactions',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    partnerId: text('partner_id'),
    needId: text('need_id').references(() => needs.id),
    constituentId: text('constituent_id'),
    channel: text('channel').notNull(),
    direction: text('direction'),
    senderIdentifier: text('sender_identifier').notNull(),
    content: text('content'),
    deliveryStatus: text('delivery_status'),
    providerMessageId: text('provider_message_id'),
    /** The member who sent an outbound text or email; NULL for the person's messages and the service's own. */
    sentByMemberId: text('sent_by'),
    /** Why the provider did not deliver a failed text, in words. */
    deliveryError: text('delivery_error'),
    /** The number an outbound text on no need went to (a reply to a text on no need): its limits and its attachment. */
    recipient: text('recipient'),
    createdAt: createdAt(),
  },
  (t) => [
    index('interactions_by_need').on(t.organizationId, t.needId, t.createdAt, t.id),
    // The texts on no need (GET /api/messages), newest first, and those of one number, which a need takes together.
    index('interactions_unattached')
      .on(t.organizationId, t.createdAt, t.id)
      .where(sql`${t.needId} IS NULL AND ${t.channel} = 'sms' AND ${t.direction} = 'inbound'`),
    index('interactions_unattached_by_sender')
      .on(t.organizationId, t.senderIdentifier)
      .where(sql`${t.needId} IS NULL AND ${t.channel} = 'sms'`),
    index('interactions_by_recipient').on(t.organizationId, t.recipient, t.createdAt).where(sql`${t.recipient} IS NOT NULL`),
    // A person's texts not attached to a need, found when the person is erased (docs/privacy.md).
    index('interactions_by_constituent').on(t.organizationId, t.constituentId),
    // An organization's texts of a period, counted for the needs report (docs/api/needs.md "Reports"). Partial, on the
    // literal 'sms': a query that binds its channel (the send limits' counts) cannot take it for its own index.
    index('interactions_texts_by_time').on(t.organizationId, t.createdAt).where(sql`${t.channel} = 'sms'`),
    // One provider message is one interaction: a text recovered after a crash cannot be claimed twice.
    uniqueIndex('interactions_by_provider_message').on(t.providerMessageId),
  ],
)

/** A delivery status that arrived before its send was recorded; applied when it is. */
export const earlySmsStatuses = sqliteTable(
  'early_sms_statuses',
  {
    providerMessageId: text('provider_message_id').primaryKey(),
    status: text('status').notNull(),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('early_sms_statuses_by_time').on(t.receivedAt)],
)

/** Numbers that texted STOP to an organization (docs/api/organization.md "SMS"): its own list, whatever the provider blocks. */
export const smsOptOuts = sqliteTable(
  'sms_opt_outs',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    phone: text('phone').notNull(),
    optedOutAt: integer('opted_out_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.phone] })],
)

/** The last automatic answer to HELP each number was sent by an organization: at most one a day (docs/api/organization.md "SMS"). */
export const smsHelpAnswers = sqliteTable(
  'sms_help_answers',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    phone: text('phone').notNull(),
    answeredAt: integer('answered_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.phone] })],
)

export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id').notNull(),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    rotatedAt: integer('rotated_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    /** The token this one was rotated to (docs/api/access.md "Tokens": a renewal whose answer was lost). */
    replacedBy: text('replaced_by'),
    /** The client address of the renewal that rotated it: only it may present the token again after a lost answer. */
    rotatedFrom: text('rotated_from'),
  },
  (t) => [index('refresh_tokens_by_family').on(t.familyId)],
)

export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    /** The client address the attempt came from (docs/api/access.md "Tokens"). */
    address: text('address').notNull().default('unknown'),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('login_failures_by_email').on(t.email, t.at)],
)

export const invitations = sqliteTable('invitations', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
  memberId: text('member_id')
    .notNull()
    .references(() => members.id),
  tokenDigest: text('token_digest').notNull().unique(),
  createdAt: createdAt(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  usedAt: integer('used_at', { mode: 'timestamp_ms' }),
  /** What the link is for: absent (NULL) an invitation, `password_reset` or `email_change`. */
  purpose: text('purpose'),
  /** The new address an `email_change` link confirms; NULL for the others. */
  email: text('email'),
})

export const emailSettings = sqliteTable('email_settings', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  provider: text('provider').notNull(),
  /** AES-256-GCM under DATA_ENCRYPTION_KEY; never stored or logged in clear. */
  sealedApiKey: text('sealed_api_key').notNull(),
  apiKeyLast4: text('api_key_last4').notNull(),
  fromEmail: text('from_email').notNull(),
  fromName: text('from_name'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
})

export const outbox = sqliteTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
    inFlightSince: integer('in_flight_since', { mode: 'timestamp_ms' }),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    /** A webhook's endpoint (its deliveries are listed by it) and the HTTP status of its latest try. */
    webhookEndpointId: text('webhook_endpoint_id'),
    responseStatus: integer('response_status'),
    createdAt: createdAt(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('outbox_due').on(t.status, t.nextAttemptAt),
    index('outbox_lapsed').on(t.status, t.lockedUntil),
    index('outbox_by_organization').on(t.organizationId, t.status, t.nextAttemptAt),
    index('outbox_by_webhook_endpoint').on(t.webhookEndpointId, t.createdAt, t.id),
  ],
)

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    /** AES-256-GCM under DATA_ENCRYPTION_KEY; never stored or logged in clear. */
    sealedSecret: text('sealed_secret').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    consecutiveFailures: integer('consecutive_failures').notNull(),
    disabledAt: integer('disabled_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('webhook_endpoints_by_organization').on(t.organizationId, t.createdAt, t.id)],
)

/**
 * The audit trail (docs/audit.md): appended in the transaction of what it records, never updated (a trigger
 * refuses it), deleted only by the retention purge. Names of fields, never their values.
 */
export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    memberId: text('member_id'),
    action: text('action').notNull(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    requestId: text('request_id'),
    /** How many records a run touched (a retention run's), by kind: numbers, never values. */
    counts: text('counts', { mode: 'json' }).$type<Record<string, number>>(),
    fields: text('fields', { mode: 'json' }).$type<string[]>(),
  },
  (t) => [
    index('audit_events_newest').on(t.organizationId, t.at, t.id),
    index('audit_events_by_member').on(t.organizationId, t.memberId, t.at, t.id),
    index('audit_events_by_record').on(t.organizationId, t.recordType, t.recordId, t.at, t.id),
    // The trail filtered by action (say, every merge) reads its page by this index, not by walking the organization's.
    index('audit_events_by_action').on(t.organizationId, t.action, t.at, t.id),
  ],
)

/**
 * The Idempotency-Keys of creates (docs/api/conventions.md "Retrying a create"), one per caller, create and key,
 * written in the create's transaction and kept 24 hours: digests and the id of what was made, nothing of a person.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The member who sent the key, or `public` (the organization's anonymous callers). */
    caller: text('caller').notNull(),
    operation: text('operation').notNull(),
    /** SHA-256 of the key, hex. */
    keyHash: text('key_hash').notNull(),
    /** SHA-256 of the key and the request it first came with, hex. */
    requestHash: text('request_hash').notNull(),
    recordId: text('record_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.caller, t.operation, t.keyHash] }),
    // The retention job finds the keys past their day across organizations.
    index('idempotency_keys_by_age').on(t.createdAt),
  ],
)

/**
 * What would have been sent with no provider set (docs/api/organization.md "Development outbox"): kept a week for
 * the organization's admins, a password reset's link withheld, erased with the person it was to.
 */
export const developmentOutbox = sqliteTable(
  'development_outbox',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    channel: text('channel').$type<UnsentMessage['channel']>().notNull(),
    kind: text('kind').$type<UnsentMessage['kind']>().notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('development_outbox_newest').on(t.organizationId, t.createdAt, t.id),
    // The retention job finds the messages past their week across organizations.
    index('development_outbox_by_age').on(t.createdAt),
  ],
)

/**
 * A member's saved views of the inbox (docs/api/access.md "Saved views"): a name and the needs list's filters,
 * seen only by the member. The unique index keeps names apart per member and serves the member's list.
 */
export const savedViews = sqliteTable(
  'saved_views',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id),
    name: text('name').notNull(),
    filters: text('filters', { mode: 'json' }).$type<SavedViewFilters>().notNull(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('saved_views_name_per_member').on(t.organizationId, t.memberId, t.name)],
)

/**
 * Every event of every organization, written in the transaction that causes it and numbered in commit order
 * (one writer), for the live stream (docs/events.md "The live stream"): kept minutes, for streams that reconnect.
 */
export const liveEvents = sqliteTable(
  'live_events',
  {
    // AUTOINCREMENT: a number is never given twice, even after the newest rows were purged.
    id: integer('id', { mode: 'number' }).primaryKey({ autoIncrement: true }),
    organizationId: text('organization_id').notNull(),
    type: text('type').notNull(),
    /** The webhook payload's `data`: ids only. */
    data: text('data', { mode: 'json' }).$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('live_events_by_organization').on(t.organizationId, t.id), index('live_events_by_age').on(t.createdAt)],
)

/**
 * What partners offer (docs/api/services.md), the records a directory of services publishes. The lists a service holds
 * (languages, opening hours, its terms by vocabulary and code) are JSON: always read and written whole with it.
 */
export const services = sqliteTable(
  'services',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status').notNull(),
    eligibility: text('eligibility'),
    languages: text('languages', { mode: 'json' }).$type<string[]>().notNull(),
    schedule: text('schedule', { mode: 'json' }).$type<OpeningHours[]>().notNull(),
    fees: text('fees'),
    applicationProcess: text('application_process'),
    url: text('url'),
    email: text('email'),
    phone: text('phone'),
    address: text('address', { mode: 'json' }).$type<ServiceAddress>(),
    acceptingReferrals: integer('accepting_referrals', { mode: 'boolean' }).notNull(),
    taxonomyTerms: text('taxonomy_terms', { mode: 'json' }).$type<TermReference[]>().notNull(),
    isArchived: integer('is_archived', { mode: 'boolean' }).notNull(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('services_by_organization').on(t.organizationId, t.createdAt, t.id),
    index('services_by_partner').on(t.organizationId, t.partnerId, t.createdAt, t.id),
    index('services_by_update').on(t.organizationId, t.updatedAt),
  ],
)

/** The terms of the vocabularies an organization imported (docs/api/services.md "Taxonomy"): a code once per vocabulary. */
export const taxonomyTerms = sqliteTable(
  'taxonomy_terms',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    vocabulary: text('vocabulary').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
  },
  (t) => [uniqueIndex('taxonomy_terms_code_per_vocabulary').on(t.organizationId, t.vocabulary, t.code)],
)

/**
 * Pairings with organizations on this instance or another (docs/referrals.md), one row per side. A message
 * names the receiver's row, found without its organization (the signature is checked with its peer's key).
 */
export const referralPartners = sqliteTable(
  'referral_partners',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    peerOrganizationId: text('peer_organization_id').notNull(),
    peerPairingId: text('peer_pairing_id').notNull(),
    /** Raw Ed25519, base64. */
    peerPublicKey: text('peer_public_key').notNull(),
    status: text('status').notNull(),
    createdAt: createdAt(),
    endedAt: integer('ended_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('referral_partners_by_organization').on(t.organizationId, t.status, t.createdAt)],
)

/** Each organization's Ed25519 key pair, made when it first pairs; the private key sealed under DATA_ENCRYPTION_KEY. */
export const federationKeys = sqliteTable('federation_keys', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  publicKey: text('public_key').notNull(),
  sealedPrivateKey: text('sealed_private_key').notNull(),
  createdAt: createdAt(),
})

/** Invitations to pair, one use each, found by the SHA-256 of their code's secret (hex); the secret is never kept. */
export const pairingInvitations = sqliteTable(
  'pairing_invitations',
  {
    secretDigest: text('secret_digest').primaryKey(),
    id: text('id').notNull(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('pairing_invitations_by_expiry').on(t.expiresAt)],
)

/**
 * Each organization's side of its referrals (docs/referrals.md "Referrals"): the id is the same on both sides, so
 * two organizations on one instance each hold a row of it. What is read only whole (consent, history, the values taken)
 * is one JSON object.
 */
export const referrals = sqliteTable(
  'referrals',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    id: text('id').notNull(),
    direction: text('direction').notNull(),
    referralPartnerId: text('referral_partner_id').notNull(),
    serviceId: text('service_id').notNull(),
    needId: text('need_id').notNull(),
    partnerId: text('partner_id').notNull(),
    status: text('status').notNull(),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), index('referrals_by_organization').on(t.organizationId, t.createdAt)],
)

/** The ids of messages received on each pairing, kept 24 hours: one sent again is answered and changes nothing. */
export const federationMessagesSeen = sqliteTable(
  'federation_messages_seen',
  {
    pairingId: text('pairing_id').notNull(),
    messageId: text('message_id').notNull(),
    seenAt: integer('seen_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pairingId, t.messageId] }), index('federation_messages_seen_by_age').on(t.seenAt)],
)
