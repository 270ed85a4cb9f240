import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, min, ne, or, sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
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
import type { DeliveryStatus } from '../../../domain/messaging/sms'
import { ConflictError } from '../../../domain/errors'
import type { Invitation } from '../../../domain/members/invitation'
import type { EmailProvider, StoredEmailSettings } from '../../../domain/messaging/email'
import type { OutboxMessage, OutboxPayload, OutboxStatus } from '../../../domain/messaging/outbox'
import type { Constituent, Household } from '../../../domain/constituents/constituent'
import { CONTACT_FIELDS } from '../../../domain/constituents/contact'
import type { HouseholdMatch, MatchStatus, ResolveAction } from '../../../domain/constituents/household-match'
import { matchKeysOf, type MatchKeys } from '../../../domain/constituents/matching'
import { searchTermsOf, type ConstituentQuery } from '../../../domain/constituents/search'
import type { Profile, Role } from '../../../domain/auth/roles'
import type { Member } from '../../../domain/members/member'
import type { Interaction, InteractionChannel } from '../../../domain/needs/interaction'
import { FIRST_REFERENCE_NUMBER, type Need, type NeedChange, type NeedStatus, type TrackedField } from '../../../domain/needs/need'
import type { Organization } from '../../../domain/organizations/organization'
import type { Partner } from '../../../domain/partners/partner'
import { offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import * as s from './schema'

export type SqliteDb = BunSQLiteDatabase<typeof s>

/** Drops null columns: absent optional fields are omitted, not null (contract §3). */
function present<T extends Record<string, unknown>>(row: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as never
}

/** Optional fields written as NULL so an update can clear them. */
function nullable<T>(value: T | undefined): T | null {
  return value ?? null
}

class SqliteOrganizationRepository implements OrganizationRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(o: Organization) {
    await conflictOnUnique(this.db.insert(s.organizations).values({ ...o, needSequence: FIRST_REFERENCE_NUMBER - 1 }))
  }
  private async one(where: SQL) {
    const [row] = await this.db.select().from(s.organizations).where(where).limit(1)
    if (!row) return undefined
    const { needSequence: _sequence, ...organization } = present(row)
    return organization satisfies Organization
  }
  findById(id: string) {
    return this.one(eq(s.organizations.id, id))
  }
  findBySlug(slug: string) {
    return this.one(eq(s.organizations.slug, slug))
  }
  findByPhoneNumber(phoneNumber: string) {
    return this.one(eq(s.organizations.phoneNumber, phoneNumber))
  }
  findByShortCode(shortCode: string) {
    return this.one(eq(s.organizations.shortCode, shortCode))
  }
  async update(o: Organization) {
    const { id, createdAt: _createdAt, ...fields } = o
    await conflictOnUnique(
      this.db
        .update(s.organizations)
        .set({ ...fields, shortCode: nullable(o.shortCode), tcrStatus: nullable(o.tcrStatus), phoneNumber: nullable(o.phoneNumber) })
        .where(eq(s.organizations.id, id)),
    )
  }
  async count() {
    const [row] = await this.db.select({ n: count() }).from(s.organizations)
    return row?.n ?? 0
  }
  async takeNextNeedNumber(organizationId: string) {
    // One UPDATE … RETURNING: the row lock (or SQLite's write lock) makes concurrent takers queue.
    const [row] = await this.db
      .update(s.organizations)
      .set({ needSequence: sqlIncrement(s.organizations.needSequence) })
      .where(eq(s.organizations.id, organizationId))
      .returning({ n: s.organizations.needSequence })
    if (!row) throw new Error(`No organization ${organizationId}`)
    return row.n
  }
}

function sqlIncrement(column: typeof s.organizations.needSequence) {
  return sql`${column} + 1`
}

function toPartner(row: typeof s.partners.$inferSelect): Partner {
  return present(row) as Partner
}

function partnerRow(p: Partner) {
  return {
    ...p,
    description: nullable(p.description),
    keywords: nullable(p.keywords),
    website: nullable(p.website),
    publicCategoryName: nullable(p.publicCategoryName),
  }
}

class SqlitePartnerRepository implements PartnerRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(p: Partner) {
    await this.db.insert(s.partners).values(partnerRow(p))
  }
  async update(p: Partner) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = partnerRow(p)
    await this.db
      .update(s.partners)
      .set(fields)
      .where(and(eq(s.partners.id, id), eq(s.partners.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(s.partners)
      .where(and(eq(s.partners.id, id), eq(s.partners.organizationId, organizationId)))
      .limit(1)
    return row ? toPartner(row) : undefined
  }
  async listAll(organizationId: string) {
    const rows = await this.db
      .select()
      .from(s.partners)
      .where(eq(s.partners.organizationId, organizationId))
      .orderBy(asc(s.partners.createdAt), asc(s.partners.id))
    return rows.map(toPartner)
  }
  async clearDefaultExcept(organizationId: string, keepId: string) {
    await this.db
      .update(s.partners)
      .set({ isDefault: false })
      .where(and(eq(s.partners.organizationId, organizationId), ne(s.partners.id, keepId), eq(s.partners.isDefault, true)))
  }
}

function toMember(row: typeof s.members.$inferSelect): Member {
  const { role, profiles, ...rest } = present(row)
  return { ...rest, role: role as Role, profiles: profiles as Profile[] }
}

function memberRow(m: Member) {
  return {
    ...m,
    fullName: nullable(m.fullName),
    partnerId: nullable(m.partnerId),
    phone: nullable(m.phone),
    passwordHash: nullable(m.passwordHash),
  }
}

class SqliteMemberRepository implements MemberRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(m: Member) {
    await conflictOnUnique(this.db.insert(s.members).values(memberRow(m)))
  }
  async update(m: Member) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = memberRow(m)
    await this.db
      .update(s.members)
      .set(fields)
      .where(and(eq(s.members.id, id), eq(s.members.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(s.members)
      .where(and(eq(s.members.id, id), eq(s.members.organizationId, organizationId)))
      .limit(1)
    return row ? toMember(row) : undefined
  }
  async findAllByEmail(email: string) {
    const rows = await this.db.select().from(s.members).where(eq(s.members.email, email))
    return rows.map(toMember)
  }
  async findByEmail(organizationId: string, email: string) {
    const [row] = await this.db
      .select()
      .from(s.members)
      .where(and(eq(s.members.organizationId, organizationId), eq(s.members.email, email)))
      .limit(1)
    return row ? toMember(row) : undefined
  }
  async list(organizationId: string, filter: { partnerId?: string }, page: PageRequest): Promise<Page<Member>> {
    const where = and(eq(s.members.organizationId, organizationId), filter.partnerId ? eq(s.members.partnerId, filter.partnerId) : undefined)
    const rows = await this.db
      .select()
      .from(s.members)
      .where(where)
      .orderBy(desc(s.members.createdAt), desc(s.members.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(s.members).where(where)
    return { items: rows.map(toMember), total: total?.n ?? 0 }
  }
  async countConfirmedByRole(organizationId: string, role: Role) {
    const [row] = await this.db
      .select({ n: count() })
      .from(s.members)
      .where(and(eq(s.members.organizationId, organizationId), eq(s.members.role, role), eq(s.members.isConfirmed, true)))
    return row?.n ?? 0
  }
}

function toNeed(row: typeof s.needs.$inferSelect): Need {
  const { status, ...rest } = present(row)
  return { ...rest, status: status as NeedStatus }
}

function needRow(n: Need) {
  return {
    ...n,
    parentNeedId: nullable(n.parentNeedId),
    assignedTo: nullable(n.assignedTo),
    createdBy: nullable(n.createdBy),
    dueDate: nullable(n.dueDate),
    constituentId: nullable(n.constituentId),
    householdId: nullable(n.householdId),
    duplicateWarning: nullable(n.duplicateWarning),
  }
}

class SqliteNeedRepository implements NeedRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(n: Need) {
    await this.db.insert(s.needs).values(needRow(n))
  }
  async update(n: Need) {
    const { id, organizationId, createdAt: _createdAt, referenceNumber: _reference, ...fields } = needRow(n)
    await this.db
      .update(s.needs)
      .set(fields)
      .where(and(eq(s.needs.id, id), eq(s.needs.organizationId, organizationId)))
  }
  private async one(where: SQL | undefined) {
    const [row] = await this.db.select().from(s.needs).where(where).limit(1)
    return row ? toNeed(row) : undefined
  }
  findById(organizationId: string, id: string) {
    return this.one(and(eq(s.needs.organizationId, organizationId), eq(s.needs.id, id)))
  }
  findByReferenceNumber(organizationId: string, referenceNumber: string) {
    return this.one(and(eq(s.needs.organizationId, organizationId), eq(s.needs.referenceNumber, referenceNumber)))
  }
  async list(organizationId: string, filter: NeedFilter, page: PageRequest): Promise<Page<Need>> {
    const where = and(
      eq(s.needs.organizationId, organizationId),
      filter.statuses ? inArray(s.needs.status, filter.statuses) : undefined,
      filter.partnerId ? eq(s.needs.partnerId, filter.partnerId) : undefined,
      filter.assignedTo ? eq(s.needs.assignedTo, filter.assignedTo) : undefined,
      filter.constituentId ? eq(s.needs.constituentId, filter.constituentId) : undefined,
    )
    const rows = await this.db
      .select()
      .from(s.needs)
      .where(where)
      .orderBy(desc(s.needs.createdAt), desc(s.needs.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(s.needs).where(where)
    return { items: rows.map(toNeed), total: total?.n ?? 0 }
  }
  async appendChanges(changes: NeedChange[]) {
    if (changes.length === 0) return
    await this.db.insert(s.needChanges).values(
      changes.map(({ from, to, changedBy, ...c }) => ({
        ...c,
        fromValue: nullable(from),
        toValue: nullable(to),
        changedBy: nullable(changedBy),
      })),
    )
  }
  async listChanges(organizationId: string, needId: string) {
    const rows = await this.db
      .select()
      .from(s.needChanges)
      .where(and(eq(s.needChanges.organizationId, organizationId), eq(s.needChanges.needId, needId)))
      .orderBy(asc(s.needChanges.seq))
    return rows.map((row) => {
      const { fromValue, toValue, field, seq: _seq, ...rest } = present(row)
      return {
        ...rest,
        field: field as TrackedField,
        ...(fromValue !== undefined ? { from: fromValue } : {}),
        ...(toValue !== undefined ? { to: toValue } : {}),
      } satisfies NeedChange
    })
  }
  async moveConstituent(organizationId: string, fromConstituentId: string, toConstituentId: string, householdId: string) {
    await this.db
      .update(s.needs)
      .set({ constituentId: toConstituentId, householdId })
      .where(and(eq(s.needs.organizationId, organizationId), eq(s.needs.constituentId, fromConstituentId)))
  }
  async newestOfConstituents(organizationId: string, constituentIds: string[], openOnly = false) {
    if (constituentIds.length === 0) return []
    const rows = await this.db
      .select()
      .from(s.needs)
      .where(
        and(
          eq(s.needs.organizationId, organizationId),
          inArray(s.needs.constituentId, constituentIds),
          openOnly ? ne(s.needs.status, 'RESOLVED') : undefined,
        ),
      )
      .orderBy(desc(s.needs.createdAt), desc(s.needs.id))
      .limit(20)
    return rows.map(toNeed)
  }
  async setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string) {
    await this.db
      .update(s.needs)
      .set({ householdId })
      .where(and(eq(s.needs.organizationId, organizationId), eq(s.needs.constituentId, constituentId)))
  }
}

function toInteraction(row: typeof s.interactions.$inferSelect): Interaction {
  const { channel, direction, deliveryStatus, ...rest } = present(row)
  return {
    ...rest,
    channel: channel as InteractionChannel,
    ...(direction ? { direction: direction as 'inbound' | 'outbound' } : {}),
    ...(deliveryStatus ? { deliveryStatus: deliveryStatus as DeliveryStatus } : {}),
  }
}

class SqliteInteractionRepository implements InteractionRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(i: Interaction) {
    await conflictOnUnique(this.db.insert(s.interactions).values({
      ...i,
      partnerId: nullable(i.partnerId),
      needId: nullable(i.needId),
      constituentId: nullable(i.constituentId),
      direction: nullable(i.direction),
      content: nullable(i.content),
      deliveryStatus: nullable(i.deliveryStatus),
      providerMessageId: nullable(i.providerMessageId),
    }))
  }
  async listByNeed(organizationId: string, needId: string) {
    const rows = await this.db
      .select()
      .from(s.interactions)
      .where(and(eq(s.interactions.organizationId, organizationId), eq(s.interactions.needId, needId)))
      .orderBy(asc(s.interactions.createdAt), asc(s.interactions.id))
    return rows.map(toInteraction)
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(s.interactions)
      .where(and(eq(s.interactions.organizationId, organizationId), eq(s.interactions.id, id)))
      .limit(1)
    return row ? toInteraction(row) : undefined
  }
  async findByProviderMessageId(providerMessageId: string) {
    const [row] = await this.db.select().from(s.interactions).where(eq(s.interactions.providerMessageId, providerMessageId)).limit(1)
    return row ? toInteraction(row) : undefined
  }
  async setDelivery(organizationId: string, id: string, status: DeliveryStatus, providerMessageId: string | undefined) {
    await conflictOnUnique(
      this.db
        .update(s.interactions)
        .set({ deliveryStatus: status, ...(providerMessageId ? { providerMessageId } : {}) })
        .where(and(eq(s.interactions.organizationId, organizationId), eq(s.interactions.id, id))),
    )
  }
}

class SqliteSmsOptOutRepository implements SmsOptOutRepository {
  constructor(private readonly db: SqliteDb) {}
  async isOptedOut(organizationId: string, phone: string) {
    const rows = await this.db
      .select({ phone: s.smsOptOuts.phone })
      .from(s.smsOptOuts)
      .where(and(eq(s.smsOptOuts.organizationId, organizationId), eq(s.smsOptOuts.phone, phone)))
      .limit(1)
    return rows.length > 0
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    await this.db.insert(s.smsOptOuts).values({ organizationId, phone, optedOutAt: at }).onConflictDoNothing()
  }
  async optIn(organizationId: string, phone: string) {
    await this.db.delete(s.smsOptOuts).where(and(eq(s.smsOptOuts.organizationId, organizationId), eq(s.smsOptOuts.phone, phone)))
  }
}

/** The FTS token that confines a search to one organization. */
function organizationToken(organizationId: string): string {
  return `o${organizationId.replace(/-/g, '')}`
}

/**
 * Every name word and phone digit string is indexed (and searched) behind this letter, which the organization
 * token never starts with: a query word such as "o" can then never prefix-match the organization token.
 */
const TERM_MARK = 't'

function toConstituent(row: typeof s.constituents.$inferSelect): Constituent {
  const { seq: _seq, emailKey: _e, nameBirthKey: _n, lastStreetKey: _l, searchTerms: _s, ...rest } = present(row)
  return rest
}

function constituentRow(c: Constituent) {
  const keys = matchKeysOf(c)
  return {
    ...Object.fromEntries(CONTACT_FIELDS.map((field) => [field, nullable(c[field])])),
    id: c.id,
    organizationId: c.organizationId,
    householdId: c.householdId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    emailKey: nullable(keys.email),
    nameBirthKey: nullable(keys.nameAndBirth),
    lastStreetKey: nullable(keys.lastNameAndStreet),
    searchTerms: [organizationToken(c.organizationId), ...searchTermsOf(c).map((term) => TERM_MARK + term)].join(' '),
  }
}

/** An FTS5 query in which every word is a quoted prefix: user input can never become FTS syntax. */
function ftsPrefixQuery(organizationId: string, prefixes: readonly string[]): string {
  return [`"${organizationToken(organizationId)}"`, ...prefixes.map((p) => `"${TERM_MARK}${p.replace(/"/g, '""')}"*`)].join(' AND ')
}

class SqliteConstituentRepository implements ConstituentRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(c: Constituent) {
    await this.db.insert(s.constituents).values(constituentRow(c))
  }
  async update(c: Constituent) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = constituentRow(c)
    await this.db
      .update(s.constituents)
      .set(fields)
      .where(and(eq(s.constituents.id, id), eq(s.constituents.organizationId, organizationId)))
  }
  async delete(organizationId: string, id: string) {
    await this.db.delete(s.constituents).where(and(eq(s.constituents.id, id), eq(s.constituents.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(s.constituents)
      .where(and(eq(s.constituents.organizationId, organizationId), eq(s.constituents.id, id)))
      .limit(1)
    return row ? toConstituent(row) : undefined
  }
  async findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number) {
    const lookups: Array<[SQLiteColumn, string | undefined]> = [
      [s.constituents.phone, keys.phone],
      [s.constituents.emailKey, keys.email],
      [s.constituents.nameBirthKey, keys.nameAndBirth],
      [s.constituents.lastStreetKey, keys.lastNameAndStreet],
    ]
    const found = new Map<string, Constituent>()
    for (const [column, value] of lookups) {
      if (value === undefined) continue
      // One indexed equality per key, bounded: the cost does not grow with the organization.
      const rows = await this.db
        .select()
        .from(s.constituents)
        .where(and(eq(s.constituents.organizationId, organizationId), eq(column, value), ne(s.constituents.id, excludeId)))
        .limit(limitPerKey)
      for (const row of rows) found.set(row.id, toConstituent(row))
    }
    return [...found.values()]
  }
  async search(organizationId: string, query: ConstituentQuery, page: PageRequest): Promise<Page<Constituent>> {
    const where = this.searchCondition(organizationId, query)
    const rows = await this.db
      .select()
      .from(s.constituents)
      .where(where)
      .orderBy(desc(s.constituents.createdAt), desc(s.constituents.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(s.constituents).where(where)
    return { items: rows.map(toConstituent), total: total?.n ?? 0 }
  }
  private searchCondition(organizationId: string, query: ConstituentQuery): SQL | undefined {
    // The matching rows are found by an index first, then read by their seq. The unary + keeps SQLite from
    // walking every row of the organization in list order (constituents_newest) and testing each instead.
    const matching = (seqs: SQL) => and(sql`+${s.constituents.organizationId} = ${organizationId}`, sql`${s.constituents.seq} IN (${seqs})`)
    switch (query.kind) {
      case 'all':
        return eq(s.constituents.organizationId, organizationId)
      case 'email':
        return matching(sql`SELECT seq FROM constituents WHERE organization_id = ${organizationId} AND email_key = ${query.email}`)
      case 'phone':
      case 'words': {
        const prefixes = query.kind === 'phone' ? [query.digits] : query.words
        const match = ftsPrefixQuery(organizationId, prefixes)
        return matching(sql`SELECT rowid FROM constituent_search WHERE constituent_search MATCH ${match}`)
      }
    }
  }
  async listByHousehold(organizationId: string, householdId: string) {
    const rows = await this.db
      .select()
      .from(s.constituents)
      .where(and(eq(s.constituents.organizationId, organizationId), eq(s.constituents.householdId, householdId)))
      .orderBy(asc(s.constituents.createdAt), asc(s.constituents.id))
    return rows.map(toConstituent)
  }
  async findByPhone(organizationId: string, phone: string) {
    const rows = await this.db
      .select()
      .from(s.constituents)
      .where(and(eq(s.constituents.organizationId, organizationId), eq(s.constituents.phone, phone)))
      .orderBy(desc(s.constituents.createdAt), desc(s.constituents.id))
      .limit(50)
    return rows.map(toConstituent)
  }
  async insertHousehold(h: Household) {
    await this.db.insert(s.households).values(h)
  }
  async deleteHouseholdIfUnused(organizationId: string, householdId: string) {
    const used = and(eq(s.households.organizationId, organizationId), eq(s.households.id, householdId))
    const members = await this.db
      .select({ id: s.constituents.id })
      .from(s.constituents)
      .where(and(eq(s.constituents.organizationId, organizationId), eq(s.constituents.householdId, householdId)))
      .limit(1)
    const needs = await this.db
      .select({ id: s.needs.id })
      .from(s.needs)
      .where(and(eq(s.needs.organizationId, organizationId), eq(s.needs.householdId, householdId)))
      .limit(1)
    if (members.length > 0 || needs.length > 0) return false
    const deleted = await this.db.delete(s.households).where(used).returning({ id: s.households.id })
    return deleted.length > 0
  }
  async householdExists(organizationId: string, householdId: string) {
    const rows = await this.db
      .select({ id: s.households.id })
      .from(s.households)
      .where(and(eq(s.households.organizationId, organizationId), eq(s.households.id, householdId)))
      .limit(1)
    return rows.length > 0
  }
}

function toMatch(row: typeof s.householdMatches.$inferSelect): HouseholdMatch {
  const { status, action, ...rest } = present(row)
  return { ...rest, status: status as MatchStatus, ...(action ? { action: action as ResolveAction } : {}) }
}

class SqliteHouseholdMatchRepository implements HouseholdMatchRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(m: HouseholdMatch) {
    await this.db.insert(s.householdMatches).values(matchRow(m))
  }
  async update(m: HouseholdMatch) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = matchRow(m)
    await this.db
      .update(s.householdMatches)
      .set(fields)
      .where(and(eq(s.householdMatches.id, id), eq(s.householdMatches.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(s.householdMatches)
      .where(and(eq(s.householdMatches.organizationId, organizationId), eq(s.householdMatches.id, id)))
      .limit(1)
    return row ? toMatch(row) : undefined
  }
  async list(organizationId: string, status: MatchStatus | undefined, page: PageRequest): Promise<Page<HouseholdMatch>> {
    const where = and(eq(s.householdMatches.organizationId, organizationId), status ? eq(s.householdMatches.status, status) : undefined)
    const rows = await this.db
      .select()
      .from(s.householdMatches)
      .where(where)
      .orderBy(desc(s.householdMatches.createdAt), desc(s.householdMatches.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(s.householdMatches).where(where)
    return { items: rows.map(toMatch), total: total?.n ?? 0 }
  }
  async listInvolving(organizationId: string, constituentId: string) {
    const rows = await this.db
      .select()
      .from(s.householdMatches)
      .where(
        and(
          eq(s.householdMatches.organizationId, organizationId),
          or(eq(s.householdMatches.constituentId, constituentId), eq(s.householdMatches.candidateConstituentId, constituentId)),
        ),
      )
      .orderBy(asc(s.householdMatches.createdAt), asc(s.householdMatches.id))
    return rows.map(toMatch)
  }
  async delete(organizationId: string, id: string) {
    await this.db
      .delete(s.householdMatches)
      .where(and(eq(s.householdMatches.organizationId, organizationId), eq(s.householdMatches.id, id)))
  }
}

function matchRow(m: HouseholdMatch) {
  return { ...m, resolvedAt: nullable(m.resolvedAt), resolvedBy: nullable(m.resolvedBy), action: nullable(m.action) }
}

class SqliteRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(t: RefreshTokenRecord) {
    await this.db.insert(s.refreshTokens).values({ ...t, rotatedAt: nullable(t.rotatedAt), revokedAt: nullable(t.revokedAt) })
  }
  async findByHash(tokenHash: string) {
    const [row] = await this.db.select().from(s.refreshTokens).where(eq(s.refreshTokens.tokenHash, tokenHash)).limit(1)
    return row ? (present(row) as RefreshTokenRecord) : undefined
  }
  async markRotated(id: string, at: Date) {
    // Conditional update: of two concurrent rotations only one changes the row.
    const rows = await this.db
      .update(s.refreshTokens)
      .set({ rotatedAt: at })
      .where(and(eq(s.refreshTokens.id, id), isNull(s.refreshTokens.rotatedAt)))
      .returning({ id: s.refreshTokens.id })
    return rows.length === 1
  }
  async revokeFamily(familyId: string, at: Date) {
    await this.db
      .update(s.refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(s.refreshTokens.familyId, familyId), isNull(s.refreshTokens.revokedAt)))
  }
}

class SqliteLoginAttemptRepository implements LoginAttemptRepository {
  constructor(private readonly db: SqliteDb) {}
  async recordFailure(email: string, at: Date) {
    await this.db.insert(s.loginFailures).values({ email, at })
  }
  private since(email: string, since: Date) {
    return and(eq(s.loginFailures.email, email), gte(s.loginFailures.at, since))
  }
  async countFailuresSince(email: string, since: Date) {
    const [row] = await this.db.select({ n: count() }).from(s.loginFailures).where(this.since(email, since))
    return row?.n ?? 0
  }
  async oldestFailureSince(email: string, since: Date) {
    const [row] = await this.db.select({ at: min(s.loginFailures.at) }).from(s.loginFailures).where(this.since(email, since))
    return row?.at ?? undefined
  }
  async clear(email: string) {
    await this.db.delete(s.loginFailures).where(eq(s.loginFailures.email, email))
  }
}

class SqliteInvitationRepository implements InvitationRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(i: Invitation) {
    await this.db.insert(s.invitations).values({ ...i, usedAt: nullable(i.usedAt) })
  }
  async findByDigest(tokenDigest: string) {
    const [row] = await this.db.select().from(s.invitations).where(eq(s.invitations.tokenDigest, tokenDigest)).limit(1)
    return row ? (present(row) as Invitation) : undefined
  }
  async markUsed(id: string, at: Date) {
    const rows = await this.db
      .update(s.invitations)
      .set({ usedAt: at })
      .where(and(eq(s.invitations.id, id), isNull(s.invitations.usedAt)))
      .returning({ id: s.invitations.id })
    return rows.length === 1
  }
}

class SqliteEmailSettingsRepository implements EmailSettingsRepository {
  constructor(private readonly db: SqliteDb) {}
  async find(organizationId: string) {
    const [row] = await this.db.select().from(s.emailSettings).where(eq(s.emailSettings.organizationId, organizationId)).limit(1)
    if (!row) return undefined
    const { provider, ...rest } = present(row)
    return { ...rest, provider: provider as EmailProvider }
  }
  async save(settings: StoredEmailSettings) {
    const row = { ...settings, fromName: nullable(settings.fromName) }
    const { organizationId: _organizationId, ...fields } = row
    await this.db.insert(s.emailSettings).values(row).onConflictDoUpdate({ target: s.emailSettings.organizationId, set: fields })
  }
}

function toOutboxMessage(row: typeof s.outbox.$inferSelect): OutboxMessage {
  const { payload, status, ...rest } = present(row)
  return { ...rest, payload: payload as OutboxPayload, status: status as OutboxStatus }
}

class SqliteOutboxRepository implements OutboxRepository {
  constructor(private readonly db: SqliteDb) {}
  async enqueue(m: OutboxMessage) {
    await this.db.insert(s.outbox).values({
      ...m,
      lockedUntil: nullable(m.lockedUntil),
      inFlightSince: nullable(m.inFlightSince),
      lastError: nullable(m.lastError),
      providerMessageId: nullable(m.providerMessageId),
      sentAt: nullable(m.sentAt),
    })
  }
  async findById(id: string) {
    const [row] = await this.db.select().from(s.outbox).where(eq(s.outbox.id, id)).limit(1)
    return row ? toOutboxMessage(row) : undefined
  }
  private due(now: Date) {
    return or(
      and(eq(s.outbox.status, 'pending'), lte(s.outbox.nextAttemptAt, now)),
      and(eq(s.outbox.status, 'sending'), lte(s.outbox.lockedUntil, now)),
    )
  }
  async organizationsWithDue(now: Date, limit: number) {
    const rows = await this.db.selectDistinct({ id: s.outbox.organizationId }).from(s.outbox).where(this.due(now)).limit(limit)
    return rows.map((r) => r.id)
  }
  async countInFlight(organizationId: string, now: Date) {
    const [row] = await this.db
      .select({ n: count() })
      .from(s.outbox)
      .where(and(eq(s.outbox.organizationId, organizationId), eq(s.outbox.status, 'sending'), gt(s.outbox.lockedUntil, now)))
    return row?.n ?? 0
  }
  async claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date) {
    if (limit <= 0) return []
    const rows = await this.db
      .select()
      .from(s.outbox)
      .where(and(eq(s.outbox.organizationId, organizationId), this.due(now)))
      .orderBy(asc(s.outbox.nextAttemptAt), asc(s.outbox.id))
      .limit(limit)
    const claimed = rows.map((row) => {
      const message = toOutboxMessage(row)
      return { ...message, status: 'sending' as const, lockedUntil, inFlightSince: message.inFlightSince ?? now }
    })
    for (const m of claimed) {
      await this.db.update(s.outbox).set({ status: 'sending', lockedUntil, inFlightSince: m.inFlightSince }).where(eq(s.outbox.id, m.id))
    }
    return claimed
  }
  /** Applies an outcome only while the claim `fence` still holds the message. */
  private async settle(id: string, fence: Date, fields: Partial<typeof s.outbox.$inferInsert>, keepInFlightSince = false) {
    const rows = await this.db
      .update(s.outbox)
      .set({ lockedUntil: null, ...(keepInFlightSince ? {} : { inFlightSince: null }), ...fields })
      .where(and(eq(s.outbox.id, id), eq(s.outbox.status, 'sending'), eq(s.outbox.lockedUntil, fence)))
      .returning({ id: s.outbox.id })
    return rows.length === 1
  }
  markSent(id: string, fence: Date, at: Date, providerMessageId: string | undefined) {
    return this.settle(id, fence, { status: 'sent', sentAt: at, providerMessageId: nullable(providerMessageId) })
  }
  reschedule(id: string, fence: Date, attempts: number, nextAttemptAt: Date, error: string, inDoubt = false) {
    return this.settle(id, fence, { status: 'pending', attempts, nextAttemptAt, lastError: error }, inDoubt)
  }
  markFailed(id: string, fence: Date, attempts: number, error: string) {
    return this.settle(id, fence, { status: 'failed', attempts, lastError: error })
  }
}

/** A unique index turned down the write: the caller's 409, with what was taken. */
async function conflictOnUnique<T>(write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (error) {
    const message = error instanceof Error ? error.message : ''
    if (!message.includes('UNIQUE constraint failed')) throw error
    const taken = UNIQUE_MESSAGES.find(([columns]) => message.includes(columns))
    throw new ConflictError(taken?.[1] ?? 'This conflicts with an existing record')
  }
}

const UNIQUE_MESSAGES: Array<[string, string]> = [
  ['organizations.slug', 'The slug is taken by another organization'],
  ['organizations.short_code', 'The short code is taken by another organization'],
  ['members.organization_id, members.email', 'A member with this email already exists in the organization'],
  ['organizations.phone_number', 'The phone number belongs to another organization'],
  ['interactions.provider_message_id', 'Another interaction already has this provider message id'],
]

export function sqliteRepositories(db: SqliteDb): Repositories {
  return {
    organizations: new SqliteOrganizationRepository(db),
    partners: new SqlitePartnerRepository(db),
    members: new SqliteMemberRepository(db),
    needs: new SqliteNeedRepository(db),
    interactions: new SqliteInteractionRepository(db),
    constituents: new SqliteConstituentRepository(db),
    householdMatches: new SqliteHouseholdMatchRepository(db),
    refreshTokens: new SqliteRefreshTokenRepository(db),
    loginAttempts: new SqliteLoginAttemptRepository(db),
    invitations: new SqliteInvitationRepository(db),
    emailSettings: new SqliteEmailSettingsRepository(db),
    outbox: new SqliteOutboxRepository(db),
    smsOptOuts: new SqliteSmsOptOutRepository(db),
  }
}
