import { and, asc, count, desc, eq, gte, inArray, isNull, min, ne, sql, type SQL } from 'drizzle-orm'
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
} from '../../../application/ports/repositories'
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
    await this.db.insert(s.organizations).values({ ...o, needSequence: FIRST_REFERENCE_NUMBER - 1 })
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
  findByShortCode(shortCode: string) {
    return this.one(eq(s.organizations.shortCode, shortCode))
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
    await this.db.insert(s.members).values(memberRow(m))
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
      .orderBy(asc(s.needChanges.changedAt), asc(s.needChanges.id))
    return rows.map((row) => {
      const { fromValue, toValue, field, ...rest } = present(row)
      return {
        ...rest,
        field: field as TrackedField,
        ...(fromValue !== undefined ? { from: fromValue } : {}),
        ...(toValue !== undefined ? { to: toValue } : {}),
      } satisfies NeedChange
    })
  }
}

class SqliteInteractionRepository implements InteractionRepository {
  constructor(private readonly db: SqliteDb) {}
  async insert(i: Interaction) {
    await this.db.insert(s.interactions).values({
      ...i,
      partnerId: nullable(i.partnerId),
      needId: nullable(i.needId),
      content: nullable(i.content),
    })
  }
  async listByNeed(organizationId: string, needId: string) {
    const rows = await this.db
      .select()
      .from(s.interactions)
      .where(and(eq(s.interactions.organizationId, organizationId), eq(s.interactions.needId, needId)))
      .orderBy(asc(s.interactions.createdAt), asc(s.interactions.id))
    return rows.map((row) => {
      const { channel, ...rest } = present(row)
      return { ...rest, channel: channel as InteractionChannel }
    })
  }
}

class SqliteConstituentRepository implements ConstituentRepository {
  constructor(private readonly db: SqliteDb) {}
  async findHouseholdOf(organizationId: string, constituentId: string) {
    const [row] = await this.db
      .select({ householdId: s.constituents.householdId })
      .from(s.constituents)
      .where(and(eq(s.constituents.organizationId, organizationId), eq(s.constituents.id, constituentId)))
      .limit(1)
    return row?.householdId
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

export function sqliteRepositories(db: SqliteDb): Repositories {
  return {
    organizations: new SqliteOrganizationRepository(db),
    partners: new SqlitePartnerRepository(db),
    members: new SqliteMemberRepository(db),
    needs: new SqliteNeedRepository(db),
    interactions: new SqliteInteractionRepository(db),
    constituents: new SqliteConstituentRepository(db),
    refreshTokens: new SqliteRefreshTokenRepository(db),
    loginAttempts: new SqliteLoginAttemptRepository(db),
  }
}
