import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { MemberFilter, MemberRepository } from '../../../application/ports/repositories/member-repository'
import type { Role } from '../../../domain/auth/roles'
import type { Member } from '../../../domain/members/member'
import { offsetOf, type Page, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { recordsOf, type RowReader } from './row-reader'
import { SqlRepository, nullable, present } from './sql-repository'

/** One copy per row (every request reads the caller's): role and profiles hold only what the domain wrote. */
function toMember(row: typeof schema.members.$inferSelect): Member {
  return present(row) as Member
}

function memberRow(m: Member) {
  return {
    ...m,
    fullName: nullable(m.fullName),
    partnerId: nullable(m.partnerId),
    phone: nullable(m.phone),
    passwordHash: nullable(m.passwordHash),
    deactivatedAt: nullable(m.deactivatedAt),
    notifications: nullable(m.notifications),
    language: nullable(m.language),
    lastLoginAt: nullable(m.lastLoginAt),
  }
}

export class SqlMemberRepository extends SqlRepository implements MemberRepository {
  async insert(m: Member) {
    await this.conflictOnUnique(this.db.insert(this.tables.members).values(memberRow(m)))
  }
  async update(m: Member) {
    // An email change meets the same unique index as an invitation.
    await this.conflictOnUnique(this.updateInOrganization(this.tables.members, memberRow(m)))
  }
  async recordLogin(organizationId: string, id: string, at: Date) {
    const t = this.tables.members
    await this.db
      .update(t)
      .set({ lastLoginAt: at })
      .where(and(eq(t.organizationId, organizationId), eq(t.id, id)))
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.tables.members, organizationId, id)
    return row ? toMember(row) : undefined
  }
  async findInSession(organizationId: string, id: string, sessionId: string) {
    const t = this.tables.members
    const tokens = this.tables.refreshTokens
    // The session check rides on the member lookup: no second round trip. An IN on the family's index, not a
    // correlated EXISTS, which SQLite runs several times slower (18 µs against 5).
    const [member] = await this.prepared(
      'member_in_session',
      () =>
        this.db
          .select()
          .from(t)
          .where(
            and(
              eq(t.id, sql.placeholder('id')),
              eq(t.organizationId, sql.placeholder('organizationId')),
              inArray(
                t.id,
                this.db
                  .select({ memberId: tokens.memberId })
                  .from(tokens)
                  .where(and(eq(tokens.familyId, sql.placeholder('sessionId')), isNull(tokens.revokedAt))),
              ),
            ),
          ),
      { id, organizationId, sessionId },
      recordsOf(t) as RowReader<Member>,
    )
    return member
  }
  async findAllByEmail(email: string) {
    const rows = await this.db.select().from(this.tables.members).where(eq(this.tables.members.email, email))
    return rows.map(toMember)
  }
  async findByEmail(organizationId: string, email: string) {
    const [row] = await this.db
      .select()
      .from(this.tables.members)
      .where(and(eq(this.tables.members.organizationId, organizationId), eq(this.tables.members.email, email)))
      .limit(1)
    return row ? toMember(row) : undefined
  }
  async list(organizationId: string, filter: MemberFilter, page: PageRequest): Promise<Page<Member>> {
    const t = this.tables.members
    const active = filter.active === undefined ? undefined : filter.active ? isNull(t.deactivatedAt) : isNotNull(t.deactivatedAt)
    const where = and(eq(t.organizationId, organizationId), filter.partnerId ? eq(t.partnerId, filter.partnerId) : undefined, active)
    const rows = await this.db
      .select()
      .from(this.tables.members)
      .where(where)
      .orderBy(desc(this.tables.members.createdAt), desc(this.tables.members.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(this.tables.members).where(where)
    return { items: rows.map(toMember), total: total?.n ?? 0 }
  }
  async listActive(organizationId: string) {
    const t = this.tables.members
    // Prepared: every need that arrives without a member reads it, in its transaction.
    const rows = await this.prepared<typeof t.$inferSelect>(
      'members_active',
      () =>
        this.db
          .select()
          .from(t)
          .where(and(eq(t.organizationId, sql.placeholder('organizationId')), isNull(t.deactivatedAt)))
          .orderBy(desc(t.createdAt), desc(t.id)),
      { organizationId },
    )
    return rows.map(toMember)
  }
  async countSigningInByRole(organizationId: string, role: Role) {
    const t = this.tables.members
    const [row] = await this.db
      .select({ n: count() })
      .from(t)
      .where(and(eq(t.organizationId, organizationId), eq(t.role, role), eq(t.isConfirmed, true), isNull(t.deactivatedAt)))
    return row?.n ?? 0
  }
}
