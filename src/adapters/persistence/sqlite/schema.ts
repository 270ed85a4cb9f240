import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

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
  phoneNumber: text('phone_number'),
  /** The last need number taken; the next need gets this plus one. */
  needSequence: integer('need_sequence').notNull(),
  createdAt: createdAt(),
})

export const partners = sqliteTable(
  'partners',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id),
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
    organizationId: text('organization_id').notNull().references(() => organizations.id),
    email: text('email').notNull(),
    fullName: text('full_name'),
    role: text('role').notNull(),
    partnerId: text('partner_id').references(() => partners.id),
    profiles: text('profiles', { mode: 'json' }).$type<string[]>().notNull(),
    isConfirmed: integer('is_confirmed', { mode: 'boolean' }).notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('members_email_per_organization').on(t.organizationId, t.email), index('members_by_email').on(t.email)],
)

export const households = sqliteTable('households', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id').notNull().references(() => organizations.id),
  createdAt: createdAt(),
})

export const constituents = sqliteTable(
  'constituents',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id),
    householdId: text('household_id').notNull().references(() => households.id),
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
  },
  (t) => [index('constituents_by_household').on(t.householdId)],
)

export const needs = sqliteTable(
  'needs',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id),
    partnerId: text('partner_id').notNull().references(() => partners.id),
    status: text('status').notNull(),
    customFields: text('custom_fields', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    isConfidential: integer('is_confidential', { mode: 'boolean' }).notNull(),
    parentNeedId: text('parent_need_id'),
    assignedTo: text('assigned_to').references(() => members.id),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    dueDate: integer('due_date', { mode: 'timestamp_ms' }),
    constituentId: text('constituent_id').references(() => constituents.id),
    householdId: text('household_id').references(() => households.id),
    duplicateWarning: text('duplicate_warning'),
    referenceNumber: text('reference_number').notNull(),
  },
  (t) => [
    uniqueIndex('needs_reference_per_organization').on(t.organizationId, t.referenceNumber),
    // One index per list filter, each ending in the list order, so a page never sorts the whole table.
    index('needs_newest').on(t.organizationId, t.createdAt, t.id),
    index('needs_by_partner').on(t.organizationId, t.partnerId, t.createdAt, t.id),
    index('needs_by_status').on(t.organizationId, t.status, t.createdAt, t.id),
    index('needs_by_assignee').on(t.organizationId, t.assignedTo, t.createdAt, t.id),
    index('needs_by_constituent').on(t.organizationId, t.constituentId, t.createdAt, t.id),
  ],
)

export const needChanges = sqliteTable(
  'need_changes',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id),
    needId: text('need_id').notNull().references(() => needs.id),
    field: text('field').notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    changedBy: text('changed_by'),
    changedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('need_changes_by_need').on(t.needId, t.changedAt)],
)

export const interactions = sqliteTable(
  'interactions',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id),
    partnerId: text('partner_id'),
    needId: text('need_id').references(() => needs.id),
    channel: text('channel').notNull(),
    senderIdentifier: text('sender_identifier').notNull(),
    content: text('content'),
    createdAt: createdAt(),
  },
  (t) => [index('interactions_by_need').on(t.organizationId, t.needId, t.createdAt, t.id)],
)

export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id').notNull(),
    memberId: text('member_id').notNull().references(() => members.id),
    organizationId: text('organization_id').notNull().references(() => organizations.id),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    rotatedAt: integer('rotated_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('refresh_tokens_by_family').on(t.familyId)],
)

export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('login_failures_by_email').on(t.email, t.at)],
)
