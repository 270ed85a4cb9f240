import { and, asc, count, desc, eq, exists, gt, gte, inArray, isNull, lt, lte, min, ne, or, sql, type SQL } from 'drizzle-orm'
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
import type { LoginFailures } from '../../../domain/auth/login-throttle'
import { EARLY_STATUS_KEPT_MS, type DeliveryStatus } from '../../../domain/messaging/sms'
import { ConflictError } from '../../../domain/errors'
import type { Invitation } from '../../../domain/members/invitation'
import type { EmailProvider, StoredEmailSettings } from '../../../domain/messaging/email'
import type { OutboxMessage, OutboxPayload, OutboxStatus } from '../../../domain/messaging/outbox'
import type { Constituent, Household } from '../../../domain/constituents/constituent'
import { CONTACT_FIELDS } from '../../../domain/constituents/contact'
import type { HouseholdMatch, MatchStatus, ResolveAction } from '../../../domain/constituents/household-match'
import { matchKeysOf, type MatchKeys } from '../../../domain/constituents/matching'
import type { ConstituentQuery } from '../../../domain/constituents/search'
import type { Profile, Role } from '../../../domain/auth/roles'
import type { Member } from '../../../domain/members/member'
import type { Interaction, InteractionChannel } from '../../../domain/needs/interaction'
import { FIRST_REFERENCE_NUMBER, type Need, type NeedChange, type NeedStatus, type TrackedField } from '../../../domain/needs/need'
import type { Organization } from '../../../domain/organizations/organization'
import type { Partner } from '../../../domain/partners/partner'
import { offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { searchTermsColumn, type SqlDialect } from './sql-dialect'

/**
 * The database the repositories are written against. Drizzle's query builder is the same for SQLite and
 * PostgreSQL at run time; SQLite's types are the ones checked, and PostgreSQL's tables (postgres/schema.ts)
 * have the same names, columns and JS types. What really differs between the two lives in a SqlDialect.
 */
export type SqlDb = BunSQLiteDatabase<typeof schema>

/** Drops null columns: absent optional fields are omitted, not null (contract §3). */
function present<T extends Record<string, unknown>>(row: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as never
}

/** Optional fields written as NULL so an update can clear them. */
function nullable<T>(value: T | undefined): T | null {
  return value ?? null
}

/** What every repository shares: the database (or transaction), and the dialect's tables and ways. */
abstract class SqlRepository {
  constructor(
    protected readonly db: SqlDb,
    protected readonly dialect: SqlDialect,
  ) {}
  protected get s() {
    return this.dialect.tables
  }
  private readonly statements = new Map<string, { execute(values: Record<string, unknown>): unknown }>()
  /**
   * A query built once and run many times with new values (`sql.placeholder`): building a query with the
   * query builder costs several times more than reading a row, so the lookups made on every request
   * (who is calling, which need) are kept prepared. `name` identifies the statement to the database.
   */
  protected async prepared<Row>(name: string, build: () => unknown, values: Record<string, unknown>): Promise<Row[]> {
    let statement = this.statements.get(name)
    if (!statement) {
      statement = (build() as { prepare(name: string): { execute(values: Record<string, unknown>): unknown } }).prepare(name)
      this.statements.set(name, statement)
    }
    return (await statement.execute(values)) as Row[]
  }
  /** A unique index turned down the write: the caller's 409, with what was taken. */
  protected async conflictOnUnique<T>(write: PromiseLike<T>): Promise<T> {
    try {
      return await write
    } catch (error) {
      const index = this.dialect.uniqueViolation(error)
      if (index === undefined) throw error
      throw new ConflictError(UNIQUE_MESSAGES[index] ?? 'This conflicts with an existing record')
    }
  }
}

class SqlOrganizationRepository extends SqlRepository implements OrganizationRepository {
  async insert(o: Organization) {
    await this.conflictOnUnique(this.db.insert(this.s.organizations).values({ ...o, needSequence: FIRST_REFERENCE_NUMBER - 1 }))
  }
  private async one(where: SQL) {
    const [row] = await this.db.select().from(this.s.organizations).where(where).limit(1)
    if (!row) return undefined
    const { needSequence: _sequence, ...organization } = present(row)
    return organization satisfies Organization
  }
  async findById(id: string) {
    const t = this.s.organizations
    const [row] = await this.prepared<typeof t.$inferSelect>(
      'organization_by_id',
      () => this.db.select().from(t).where(eq(t.id, sql.placeholder('id'))).limit(1),
      { id },
    )
    if (!row) return undefined
    const { needSequence: _sequence, ...organization } = present(row)
    return organization satisfies Organization
  }
  findBySlug(slug: string) {
    return this.one(eq(this.s.organizations.slug, slug))
  }
  findByPhoneNumber(phoneNumber: string) {
    return this.one(eq(this.s.organizations.phoneNumber, phoneNumber))
  }
  findByShortCode(shortCode: string) {
    return this.one(eq(this.s.organizations.shortCode, shortCode))
  }
  async update(o: Organization) {
    const { id, createdAt: _createdAt, ...fields } = o
    await this.conflictOnUnique(
      this.db
        .update(this.s.organizations)
        .set({ ...fields, shortCode: nullable(o.shortCode), tcrStatus: nullable(o.tcrStatus), phoneNumber: nullable(o.phoneNumber) })
        .where(eq(this.s.organizations.id, id)),
    )
  }
  async lockForUpdate(id: string) {
    await this.dialect.lockRow(this.db.select({ id: this.s.organizations.id }).from(this.s.organizations).where(eq(this.s.organizations.id, id)))
  }
  async count() {
    const [row] = await this.db.select({ n: count() }).from(this.s.organizations)
    return row?.n ?? 0
  }
  async takeNextNeedNumber(organizationId: string) {
    // One UPDATE … RETURNING: the row lock (or SQLite's write lock) makes concurrent takers queue.
    const [row] = await this.db
      .update(this.s.organizations)
      .set({ needSequence: sqlIncrement(this.s.organizations.needSequence) })
      .where(eq(this.s.organizations.id, organizationId))
      .returning({ n: this.s.organizations.needSequence })
    if (!row) throw new Error(`No organization ${organizationId}`)
    return row.n
  }
}

function sqlIncrement(column: typeof schema.organizations.needSequence) {
  return sql`${column} + 1`
}

function toPartner(row: typeof schema.partners.$inferSelect): Partner {
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

class SqlPartnerRepository extends SqlRepository implements PartnerRepository {
  async insert(p: Partner) {
    await this.db.insert(this.s.partners).values(partnerRow(p))
  }
  async update(p: Partner) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = partnerRow(p)
    await this.db
      .update(this.s.partners)
      .set(fields)
      .where(and(eq(this.s.partners.id, id), eq(this.s.partners.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const t = this.s.partners
    const [row] = await this.prepared<typeof t.$inferSelect>(
      'partner_by_id',
      () => this.db.select().from(t).where(and(eq(t.id, sql.placeholder('id')), eq(t.organizationId, sql.placeholder('organizationId')))).limit(1),
      { id, organizationId },
    )
    return row ? toPartner(row) : undefined
  }
  async listAll(organizationId: string) {
    const rows = await this.db
      .select()
      .from(this.s.partners)
      .where(eq(this.s.partners.organizationId, organizationId))
      .orderBy(asc(this.s.partners.createdAt), asc(this.s.partners.id))
    return rows.map(toPartner)
  }
  async clearDefaultExcept(organizationId: string, keepId: string) {
    await this.db
      .update(this.s.partners)
      .set({ isDefault: false })
      .where(and(eq(this.s.partners.organizationId, organizationId), ne(this.s.partners.id, keepId), eq(this.s.partners.isDefault, true)))
  }
}

function toMember(row: typeof schema.members.$inferSelect): Member {
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

class SqlMemberRepository extends SqlRepository implements MemberRepository {
  async insert(m: Member) {
    await this.conflictOnUnique(this.db.insert(this.s.members).values(memberRow(m)))
  }
  async update(m: Member) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = memberRow(m)
    await this.db
      .update(this.s.members)
      .set(fields)
      .where(and(eq(this.s.members.id, id), eq(this.s.members.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const t = this.s.members
    const [row] = await this.prepared<typeof t.$inferSelect>(
      'member_by_id',
      () => this.db.select().from(t).where(and(eq(t.id, sql.placeholder('id')), eq(t.organizationId, sql.placeholder('organizationId')))).limit(1),
      { id, organizationId },
    )
    return row ? toMember(row) : undefined
  }
  async findInSession(organizationId: string, id: string, sessionId: string) {
    const t = this.s.members
    const tokens = this.s.refreshTokens
    // The session check rides on the member lookup (an EXISTS on the family's index): no second round trip.
    const [row] = await this.prepared<typeof t.$inferSelect>(
      'member_in_session',
      () =>
        this.db
          .select()
          .from(t)
          .where(
            and(
              eq(t.id, sql.placeholder('id')),
              eq(t.organizationId, sql.placeholder('organizationId')),
              exists(
                this.db
                  .select({ one: sql`1` })
                  .from(tokens)
                  .where(and(eq(tokens.familyId, sql.placeholder('sessionId')), eq(tokens.memberId, t.id), isNull(tokens.revokedAt))),
              ),
            ),
          )
          .limit(1),
      { id, organizationId, sessionId },
    )
    return row ? toMember(row) : undefined
  }
  async findAllByEmail(email: string) {
    const rows = await this.db.select().from(this.s.members).where(eq(this.s.members.email, email))
    return rows.map(toMember)
  }
  async findByEmail(organizationId: string, email: string) {
    const [row] = await this.db
      .select()
      .from(this.s.members)
      .where(and(eq(this.s.members.organizationId, organizationId), eq(this.s.members.email, email)))
      .limit(1)
    return row ? toMember(row) : undefined
  }
  async list(organizationId: string, filter: { partnerId?: string }, page: PageRequest): Promise<Page<Member>> {
    const where = and(eq(this.s.members.organizationId, organizationId), filter.partnerId ? eq(this.s.members.partnerId, filter.partnerId) : undefined)
    const rows = await this.db
      .select()
      .from(this.s.members)
      .where(where)
      .orderBy(desc(this.s.members.createdAt), desc(this.s.members.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.s.members).where(where)
    return { items: rows.map(toMember), total: total?.n ?? 0 }
  }
  async countConfirmedByRole(organizationId: string, role: Role) {
    const [row] = await this.db
      .select({ n: count() })
      .from(this.s.members)
      .where(and(eq(this.s.members.organizationId, organizationId), eq(this.s.members.role, role), eq(this.s.members.isConfirmed, true)))
    return row?.n ?? 0
  }
}

function toNeed(row: typeof schema.needs.$inferSelect): Need {
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

class SqlNeedRepository extends SqlRepository implements NeedRepository {
  async insert(n: Need) {
    await this.db.insert(this.s.needs).values(needRow(n))
  }
  async update(n: Need) {
    const { id, organizationId, createdAt: _createdAt, referenceNumber: _reference, ...fields } = needRow(n)
    await this.db
      .update(this.s.needs)
      .set(fields)
      .where(and(eq(this.s.needs.id, id), eq(this.s.needs.organizationId, organizationId)))
  }
  /** One need of the organization by `column` (its id or its reference number), prepared. */
  private async one(column: 'id' | 'referenceNumber', value: string, organizationId: string) {
    const t = this.s.needs
    const [row] = await this.prepared<typeof t.$inferSelect>(
      `need_by_${column}`,
      () => this.db.select().from(t).where(and(eq(t.organizationId, sql.placeholder('organizationId')), eq(t[column], sql.placeholder('value')))).limit(1),
      { organizationId, value },
    )
    return row ? toNeed(row) : undefined
  }
  findById(organizationId: string, id: string) {
    return this.one('id', id, organizationId)
  }
  findByReferenceNumber(organizationId: string, referenceNumber: string) {
    return this.one('referenceNumber', referenceNumber, organizationId)
  }
  async list(organizationId: string, filter: NeedFilter, page: PageRequest): Promise<Page<Need>> {
    const where = and(
      eq(this.s.needs.organizationId, organizationId),
      filter.statuses ? inArray(this.s.needs.status, filter.statuses) : undefined,
      filter.partnerId ? eq(this.s.needs.partnerId, filter.partnerId) : undefined,
      filter.assignedTo ? eq(this.s.needs.assignedTo, filter.assignedTo) : undefined,
      filter.constituentId ? eq(this.s.needs.constituentId, filter.constituentId) : undefined,
    )
    const rows = await this.db
      .select()
      .from(this.s.needs)
      .where(where)
      .orderBy(desc(this.s.needs.createdAt), desc(this.s.needs.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.s.needs).where(where)
    return { items: rows.map(toNeed), total: total?.n ?? 0 }
  }
  async appendChanges(changes: NeedChange[]) {
    if (changes.length === 0) return
    await this.db.insert(this.s.needChanges).values(
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
      .from(this.s.needChanges)
      .where(and(eq(this.s.needChanges.organizationId, organizationId), eq(this.s.needChanges.needId, needId)))
      .orderBy(asc(this.s.needChanges.seq))
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
      .update(this.s.needs)
      .set({ constituentId: toConstituentId, householdId })
      .where(and(eq(this.s.needs.organizationId, organizationId), eq(this.s.needs.constituentId, fromConstituentId)))
  }
  async newestOfConstituents(organizationId: string, constituentIds: string[], openOnly = false) {
    if (constituentIds.length === 0) return []
    const rows = await this.db
      .select()
      .from(this.s.needs)
      .where(
        and(
          eq(this.s.needs.organizationId, organizationId),
          inArray(this.s.needs.constituentId, constituentIds),
          openOnly ? ne(this.s.needs.status, 'RESOLVED') : undefined,
        ),
      )
      .orderBy(desc(this.s.needs.createdAt), desc(this.s.needs.id))
      .limit(20)
    return rows.map(toNeed)
  }
  async setHouseholdOfConstituent(organizationId: string, constituentId: string, householdId: string) {
    await this.db
      .update(this.s.needs)
      .set({ householdId })
      .where(and(eq(this.s.needs.organizationId, organizationId), eq(this.s.needs.constituentId, constituentId)))
  }
}

function toInteraction(row: typeof schema.interactions.$inferSelect): Interaction {
  const { channel, direction, deliveryStatus, ...rest } = present(row)
  return {
    ...rest,
    channel: channel as InteractionChannel,
    ...(direction ? { direction: direction as 'inbound' | 'outbound' } : {}),
    ...(deliveryStatus ? { deliveryStatus: deliveryStatus as DeliveryStatus } : {}),
  }
}

class SqlInteractionRepository extends SqlRepository implements InteractionRepository {
  async insert(i: Interaction) {
    await this.conflictOnUnique(this.db.insert(this.s.interactions).values({
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
      .from(this.s.interactions)
      .where(and(eq(this.s.interactions.organizationId, organizationId), eq(this.s.interactions.needId, needId)))
      .orderBy(asc(this.s.interactions.createdAt), asc(this.s.interactions.id))
    return rows.map(toInteraction)
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.s.interactions)
      .where(and(eq(this.s.interactions.organizationId, organizationId), eq(this.s.interactions.id, id)))
      .limit(1)
    return row ? toInteraction(row) : undefined
  }
  async findByProviderMessageId(providerMessageId: string) {
    const [row] = await this.db.select().from(this.s.interactions).where(eq(this.s.interactions.providerMessageId, providerMessageId)).limit(1)
    return row ? toInteraction(row) : undefined
  }
  async setDelivery(organizationId: string, id: string, status: DeliveryStatus, providerMessageId: string | undefined) {
    await this.conflictOnUnique(
      this.db
        .update(this.s.interactions)
        .set({ deliveryStatus: status, ...(providerMessageId ? { providerMessageId } : {}) })
        .where(and(eq(this.s.interactions.organizationId, organizationId), eq(this.s.interactions.id, id))),
    )
  }
  async rememberEarlyStatus(providerMessageId: string, status: DeliveryStatus, at: Date) {
    const t = this.s.earlySmsStatuses
    await this.db.delete(t).where(lt(t.receivedAt, new Date(at.getTime() - EARLY_STATUS_KEPT_MS)))
    await this.db
      .insert(t)
      .values({ providerMessageId, status, receivedAt: at })
      .onConflictDoUpdate({ target: t.providerMessageId, set: { status, receivedAt: at } })
  }
  async takeEarlyStatus(providerMessageId: string) {
    const t = this.s.earlySmsStatuses
    const rows = await this.db.delete(t).where(eq(t.providerMessageId, providerMessageId)).returning({ status: t.status })
    return rows[0]?.status as DeliveryStatus | undefined
  }
}

class SqlSmsOptOutRepository extends SqlRepository implements SmsOptOutRepository {
  async isOptedOut(organizationId: string, phone: string) {
    const rows = await this.db
      .select({ phone: this.s.smsOptOuts.phone })
      .from(this.s.smsOptOuts)
      .where(and(eq(this.s.smsOptOuts.organizationId, organizationId), eq(this.s.smsOptOuts.phone, phone)))
      .limit(1)
    return rows.length > 0
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    await this.db.insert(this.s.smsOptOuts).values({ organizationId, phone, optedOutAt: at }).onConflictDoNothing()
  }
  async optIn(organizationId: string, phone: string) {
    await this.db.delete(this.s.smsOptOuts).where(and(eq(this.s.smsOptOuts.organizationId, organizationId), eq(this.s.smsOptOuts.phone, phone)))
  }
}

function toConstituent(row: typeof schema.constituents.$inferSelect): Constituent {
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
    searchTerms: searchTermsColumn(c),
  }
}

class SqlConstituentRepository extends SqlRepository implements ConstituentRepository {
  async insert(c: Constituent) {
    await this.db.insert(this.s.constituents).values(constituentRow(c))
  }
  async update(c: Constituent) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = constituentRow(c)
    await this.db
      .update(this.s.constituents)
      .set(fields)
      .where(and(eq(this.s.constituents.id, id), eq(this.s.constituents.organizationId, organizationId)))
  }
  async delete(organizationId: string, id: string) {
    await this.db.delete(this.s.constituents).where(and(eq(this.s.constituents.id, id), eq(this.s.constituents.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.s.constituents)
      .where(and(eq(this.s.constituents.organizationId, organizationId), eq(this.s.constituents.id, id)))
      .limit(1)
    return row ? toConstituent(row) : undefined
  }
  async findByMatchKeys(organizationId: string, keys: MatchKeys, excludeId: string, limitPerKey: number) {
    const lookups: Array<[SQLiteColumn, string | undefined]> = [
      [this.s.constituents.phone, keys.phone],
      [this.s.constituents.emailKey, keys.email],
      [this.s.constituents.nameBirthKey, keys.nameAndBirth],
      [this.s.constituents.lastStreetKey, keys.lastNameAndStreet],
    ]
    const found = new Map<string, Constituent>()
    for (const [column, value] of lookups) {
      if (value === undefined) continue
      // One indexed equality per key, bounded: the cost does not grow with the organization.
      const rows = await this.db
        .select()
        .from(this.s.constituents)
        .where(and(eq(this.s.constituents.organizationId, organizationId), eq(column, value), ne(this.s.constituents.id, excludeId)))
        .limit(limitPerKey)
      for (const row of rows) found.set(row.id, toConstituent(row))
    }
    return [...found.values()]
  }
  async search(organizationId: string, query: ConstituentQuery, page: PageRequest): Promise<Page<Constituent>> {
    const where = this.searchCondition(organizationId, query)
    const rows = await this.db
      .select()
      .from(this.s.constituents)
      .where(where)
      .orderBy(desc(this.s.constituents.createdAt), desc(this.s.constituents.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.s.constituents).where(where)
    return { items: rows.map(toConstituent), total: total?.n ?? 0 }
  }
  private searchCondition(organizationId: string, query: ConstituentQuery): SQL | undefined {
    return query.kind === 'all' ? eq(this.s.constituents.organizationId, organizationId) : this.dialect.constituentSearch(organizationId, query)
  }
  async listByHousehold(organizationId: string, householdId: string) {
    const rows = await this.db
      .select()
      .from(this.s.constituents)
      .where(and(eq(this.s.constituents.organizationId, organizationId), eq(this.s.constituents.householdId, householdId)))
      .orderBy(asc(this.s.constituents.createdAt), asc(this.s.constituents.id))
    return rows.map(toConstituent)
  }
  async findByPhone(organizationId: string, phone: string) {
    const rows = await this.db
      .select()
      .from(this.s.constituents)
      .where(and(eq(this.s.constituents.organizationId, organizationId), eq(this.s.constituents.phone, phone)))
      .orderBy(desc(this.s.constituents.createdAt), desc(this.s.constituents.id))
      .limit(50)
    return rows.map(toConstituent)
  }
  async insertHousehold(h: Household) {
    await this.db.insert(this.s.households).values(h)
  }
  async deleteHouseholdIfUnused(organizationId: string, householdId: string) {
    const used = and(eq(this.s.households.organizationId, organizationId), eq(this.s.households.id, householdId))
    const members = await this.db
      .select({ id: this.s.constituents.id })
      .from(this.s.constituents)
      .where(and(eq(this.s.constituents.organizationId, organizationId), eq(this.s.constituents.householdId, householdId)))
      .limit(1)
    const needs = await this.db
      .select({ id: this.s.needs.id })
      .from(this.s.needs)
      .where(and(eq(this.s.needs.organizationId, organizationId), eq(this.s.needs.householdId, householdId)))
      .limit(1)
    if (members.length > 0 || needs.length > 0) return false
    const deleted = await this.db.delete(this.s.households).where(used).returning({ id: this.s.households.id })
    return deleted.length > 0
  }
  async householdExists(organizationId: string, householdId: string) {
    const rows = await this.db
      .select({ id: this.s.households.id })
      .from(this.s.households)
      .where(and(eq(this.s.households.organizationId, organizationId), eq(this.s.households.id, householdId)))
      .limit(1)
    return rows.length > 0
  }
}

function toMatch(row: typeof schema.householdMatches.$inferSelect): HouseholdMatch {
  const { status, action, ...rest } = present(row)
  return { ...rest, status: status as MatchStatus, ...(action ? { action: action as ResolveAction } : {}) }
}

class SqlHouseholdMatchRepository extends SqlRepository implements HouseholdMatchRepository {
  async insert(m: HouseholdMatch) {
    await this.db.insert(this.s.householdMatches).values(matchRow(m))
  }
  async update(m: HouseholdMatch) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = matchRow(m)
    await this.db
      .update(this.s.householdMatches)
      .set(fields)
      .where(and(eq(this.s.householdMatches.id, id), eq(this.s.householdMatches.organizationId, organizationId)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.s.householdMatches)
      .where(and(eq(this.s.householdMatches.organizationId, organizationId), eq(this.s.householdMatches.id, id)))
      .limit(1)
    return row ? toMatch(row) : undefined
  }
  async list(organizationId: string, status: MatchStatus | undefined, page: PageRequest): Promise<Page<HouseholdMatch>> {
    const where = and(eq(this.s.householdMatches.organizationId, organizationId), status ? eq(this.s.householdMatches.status, status) : undefined)
    const rows = await this.db
      .select()
      .from(this.s.householdMatches)
      .where(where)
      .orderBy(desc(this.s.householdMatches.createdAt), desc(this.s.householdMatches.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.s.householdMatches).where(where)
    return { items: rows.map(toMatch), total: total?.n ?? 0 }
  }
  async listInvolving(organizationId: string, constituentId: string) {
    const rows = await this.db
      .select()
      .from(this.s.householdMatches)
      .where(
        and(
          eq(this.s.householdMatches.organizationId, organizationId),
          or(eq(this.s.householdMatches.constituentId, constituentId), eq(this.s.householdMatches.candidateConstituentId, constituentId)),
        ),
      )
      .orderBy(asc(this.s.householdMatches.createdAt), asc(this.s.householdMatches.id))
    return rows.map(toMatch)
  }
  async delete(organizationId: string, id: string) {
    await this.db
      .delete(this.s.householdMatches)
      .where(and(eq(this.s.householdMatches.organizationId, organizationId), eq(this.s.householdMatches.id, id)))
  }
}

function matchRow(m: HouseholdMatch) {
  return { ...m, resolvedAt: nullable(m.resolvedAt), resolvedBy: nullable(m.resolvedBy), action: nullable(m.action) }
}

class SqlRefreshTokenRepository extends SqlRepository implements RefreshTokenRepository {
  async insert(t: RefreshTokenRecord) {
    await this.db.insert(this.s.refreshTokens).values({ ...t, rotatedAt: nullable(t.rotatedAt), revokedAt: nullable(t.revokedAt) })
  }
  async findByHash(tokenHash: string) {
    const [row] = await this.db.select().from(this.s.refreshTokens).where(eq(this.s.refreshTokens.tokenHash, tokenHash)).limit(1)
    return row ? (present(row) as RefreshTokenRecord) : undefined
  }
  async markRotated(id: string, at: Date) {
    // Conditional update: of two concurrent rotations only one changes the row.
    const rows = await this.db
      .update(this.s.refreshTokens)
      .set({ rotatedAt: at })
      .where(and(eq(this.s.refreshTokens.id, id), isNull(this.s.refreshTokens.rotatedAt)))
      .returning({ id: this.s.refreshTokens.id })
    return rows.length === 1
  }
  async revokeFamily(familyId: string, at: Date) {
    await this.db
      .update(this.s.refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(this.s.refreshTokens.familyId, familyId), isNull(this.s.refreshTokens.revokedAt)))
  }
}

class SqlLoginAttemptRepository extends SqlRepository implements LoginAttemptRepository {
  async recordFailure(email: string, address: string, at: Date) {
    await this.db.insert(this.s.loginFailures).values({ email, address, at })
  }
  async failuresSince(email: string, address: string, since: Date): Promise<LoginFailures> {
    const t = this.s.loginFailures
    const fromAddress = sql`${t.address} = ${address}`
    const [row] = await this.db
      .select({
        total: count(),
        oldest: min(t.at),
        fromAddress: sql<number>`sum(case when ${fromAddress} then 1 else 0 end)`.mapWith(Number),
        oldestFromAddress: sql<Date | null>`min(case when ${fromAddress} then ${t.at} end)`.mapWith(t.at),
      })
      .from(t)
      .where(and(eq(t.email, email), gte(t.at, since)))
    return {
      total: row?.total ?? 0,
      fromAddress: row?.fromAddress ?? 0,
      ...(row?.oldest ? { oldest: row.oldest } : {}),
      ...(row?.oldestFromAddress ? { oldestFromAddress: row.oldestFromAddress } : {}),
    }
  }
  async clear(email: string, address: string) {
    await this.db.delete(this.s.loginFailures).where(and(eq(this.s.loginFailures.email, email), eq(this.s.loginFailures.address, address)))
  }
}

class SqlInvitationRepository extends SqlRepository implements InvitationRepository {
  async insert(i: Invitation) {
    await this.db.insert(this.s.invitations).values({ ...i, usedAt: nullable(i.usedAt) })
  }
  async findByDigest(tokenDigest: string) {
    const [row] = await this.db.select().from(this.s.invitations).where(eq(this.s.invitations.tokenDigest, tokenDigest)).limit(1)
    return row ? (present(row) as Invitation) : undefined
  }
  async markUsed(id: string, at: Date) {
    const rows = await this.db
      .update(this.s.invitations)
      .set({ usedAt: at })
      .where(and(eq(this.s.invitations.id, id), isNull(this.s.invitations.usedAt)))
      .returning({ id: this.s.invitations.id })
    return rows.length === 1
  }
}

class SqlEmailSettingsRepository extends SqlRepository implements EmailSettingsRepository {
  async find(organizationId: string) {
    const [row] = await this.db.select().from(this.s.emailSettings).where(eq(this.s.emailSettings.organizationId, organizationId)).limit(1)
    if (!row) return undefined
    const { provider, ...rest } = present(row)
    return { ...rest, provider: provider as EmailProvider }
  }
  async save(settings: StoredEmailSettings) {
    const row = { ...settings, fromName: nullable(settings.fromName) }
    const { organizationId: _organizationId, ...fields } = row
    await this.db.insert(this.s.emailSettings).values(row).onConflictDoUpdate({ target: this.s.emailSettings.organizationId, set: fields })
  }
}

function toOutboxMessage(row: typeof schema.outbox.$inferSelect): OutboxMessage {
  const { payload, status, ...rest } = present(row)
  return { ...rest, payload: payload as OutboxPayload, status: status as OutboxStatus }
}

class SqlOutboxRepository extends SqlRepository implements OutboxRepository {
  async enqueue(m: OutboxMessage) {
    await this.db.insert(this.s.outbox).values({
      ...m,
      lockedUntil: nullable(m.lockedUntil),
      inFlightSince: nullable(m.inFlightSince),
      lastError: nullable(m.lastError),
      providerMessageId: nullable(m.providerMessageId),
      sentAt: nullable(m.sentAt),
    })
  }
  async findById(id: string) {
    const [row] = await this.db.select().from(this.s.outbox).where(eq(this.s.outbox.id, id)).limit(1)
    return row ? toOutboxMessage(row) : undefined
  }
  private due(now: Date) {
    return or(
      and(eq(this.s.outbox.status, 'pending'), lte(this.s.outbox.nextAttemptAt, now)),
      and(eq(this.s.outbox.status, 'sending'), lte(this.s.outbox.lockedUntil, now)),
    )
  }
  async organizationsWithDue(now: Date, limit: number) {
    // In id order, so concurrent dispatchers lock organizations in the same order and never deadlock.
    const rows = await this.db
      .selectDistinct({ id: this.s.outbox.organizationId })
      .from(this.s.outbox)
      .where(this.due(now))
      .orderBy(asc(this.s.outbox.organizationId))
      .limit(limit)
    return rows.map((r) => r.id)
  }
  async countInFlight(organizationId: string, now: Date) {
    const [row] = await this.db
      .select({ n: count() })
      .from(this.s.outbox)
      .where(and(eq(this.s.outbox.organizationId, organizationId), eq(this.s.outbox.status, 'sending'), gt(this.s.outbox.lockedUntil, now)))
    return row?.n ?? 0
  }
  async claimDue(organizationId: string, now: Date, limit: number, lockedUntil: Date) {
    if (limit <= 0) return []
    const rows = await this.dialect.skipLocked(
      this.db
        .select()
        .from(this.s.outbox)
        .where(and(eq(this.s.outbox.organizationId, organizationId), this.due(now)))
        .orderBy(asc(this.s.outbox.nextAttemptAt), asc(this.s.outbox.id))
        .limit(limit),
    )
    const claimed = rows.map((row) => {
      const message = toOutboxMessage(row)
      return { ...message, status: 'sending' as const, lockedUntil, inFlightSince: message.inFlightSince ?? now }
    })
    for (const m of claimed) {
      await this.db.update(this.s.outbox).set({ status: 'sending', lockedUntil, inFlightSince: m.inFlightSince }).where(eq(this.s.outbox.id, m.id))
    }
    return claimed
  }
  /** Applies an outcome only while the claim `fence` still holds the message. */
  private async settle(id: string, fence: Date, fields: Partial<typeof schema.outbox.$inferInsert>, keepInFlightSince = false) {
    const rows = await this.db
      .update(this.s.outbox)
      .set({ lockedUntil: null, ...(keepInFlightSince ? {} : { inFlightSince: null }), ...fields })
      .where(and(eq(this.s.outbox.id, id), eq(this.s.outbox.status, 'sending'), eq(this.s.outbox.lockedUntil, fence)))
      .returning({ id: this.s.outbox.id })
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

/** The 409 for each unique index, by the `table.column` it covers. */
const UNIQUE_MESSAGES: Record<string, string> = {
  'organizations.slug': 'The slug is taken by another organization',
  'organizations.short_code': 'The short code is taken by another organization',
  'organizations.phone_number': 'The phone number belongs to another organization',
  'members.email': 'A member with this email already exists in the organization',
  'interactions.provider_message_id': 'Another interaction already has this provider message id',
}

/** Repositories over one database or transaction, in the given dialect. */
export function sqlRepositories(db: SqlDb, dialect: SqlDialect): Repositories {
  return {
    organizations: new SqlOrganizationRepository(db, dialect),
    partners: new SqlPartnerRepository(db, dialect),
    members: new SqlMemberRepository(db, dialect),
    needs: new SqlNeedRepository(db, dialect),
    interactions: new SqlInteractionRepository(db, dialect),
    constituents: new SqlConstituentRepository(db, dialect),
    householdMatches: new SqlHouseholdMatchRepository(db, dialect),
    refreshTokens: new SqlRefreshTokenRepository(db, dialect),
    loginAttempts: new SqlLoginAttemptRepository(db, dialect),
    invitations: new SqlInvitationRepository(db, dialect),
    emailSettings: new SqlEmailSettingsRepository(db, dialect),
    outbox: new SqlOutboxRepository(db, dialect),
    smsOptOuts: new SqlSmsOptOutRepository(db, dialect),
  }
}
