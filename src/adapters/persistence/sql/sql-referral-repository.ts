import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { ReferralFilter, ReferralRepository } from '../../../application/ports/repositories/referral-repository'
import type { Consent, Referral, ReferralDirection, ReferralMove, ReferralStatus } from '../../../domain/referrals/referral'
import { offsetOf, type PageRequest } from '../../../domain/shared/page'
import type * as schema from '../sqlite/schema'
import { SqlRepository } from './sql-repository'

/** What the `details` column holds: the rest of the referral, its times as ISO text. */
type Details = Pick<Referral, 'outcome' | 'takenValues' | 'notDelivered'> & {
  consent?: Omit<Consent, 'obtainedAt' | 'expiresAt'> & { obtainedAt: string; expiresAt: string }
  consentRevokedAt?: string
  history: Array<Omit<ReferralMove, 'at'> & { at: string }>
}

function referralRow(referral: Referral) {
  const { consent, consentRevokedAt, history, outcome, takenValues, notDelivered, ...columns } = referral
  const details: Details = {
    ...(outcome ? { outcome } : {}),
    ...(takenValues ? { takenValues } : {}),
    ...(notDelivered ? { notDelivered } : {}),
    ...(consent
      ? { consent: { ...consent, obtainedAt: consent.obtainedAt.toISOString(), expiresAt: consent.expiresAt.toISOString() } }
      : {}),
    ...(consentRevokedAt ? { consentRevokedAt: consentRevokedAt.toISOString() } : {}),
    history: history.map((move) => ({ ...move, at: move.at.toISOString() })),
  }
  return { ...columns, details: details as unknown as Record<string, unknown> }
}

function toReferral(row: typeof schema.referrals.$inferSelect): Referral {
  const { details, direction, status, ...columns } = row
  const { consent, consentRevokedAt, history, ...rest } = details as unknown as Details
  return {
    ...columns,
    ...rest,
    direction: direction as ReferralDirection,
    status: status as ReferralStatus,
    ...(consent ? { consent: { ...consent, obtainedAt: new Date(consent.obtainedAt), expiresAt: new Date(consent.expiresAt) } } : {}),
    ...(consentRevokedAt ? { consentRevokedAt: new Date(consentRevokedAt) } : {}),
    history: history.map((move) => ({ ...move, at: new Date(move.at) })),
  }
}

export class SqlReferralRepository extends SqlRepository implements ReferralRepository {
  private get f() {
    return this.tables.referrals
  }
  async insert(referral: Referral) {
    const rows = await this.db.insert(this.f).values(referralRow(referral)).onConflictDoNothing().returning({ id: this.f.id })
    return rows.length === 1
  }
  async update(referral: Referral) {
    const { id, organizationId, createdAt: _createdAt, ...fields } = referralRow(referral)
    await this.db
      .update(this.f)
      .set(fields)
      .where(and(eq(this.f.organizationId, organizationId), eq(this.f.id, id)))
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.f)
      .where(and(eq(this.f.organizationId, organizationId), eq(this.f.id, id)))
    return row ? toReferral(row) : undefined
  }
  async list(organizationId: string, filter: ReferralFilter, page: PageRequest) {
    const where = and(...this.conditions(organizationId, filter))
    const rows = await this.db
      .select()
      .from(this.f)
      .where(where)
      .orderBy(desc(this.f.createdAt), desc(this.f.id))
      .limit(page.limit)
      .offset(offsetOf(page))
    const [counted] = await this.db.select({ n: count() }).from(this.f).where(where)
    return { items: rows.map(toReferral), total: counted?.n ?? 0 }
  }
  private conditions(organizationId: string, { direction, status, partnerId }: ReferralFilter): SQL[] {
    const conditions = [eq(this.f.organizationId, organizationId)]
    if (direction !== undefined) conditions.push(eq(this.f.direction, direction))
    if (status !== undefined) conditions.push(eq(this.f.status, status))
    if (partnerId !== undefined) conditions.push(eq(this.f.partnerId, partnerId))
    return conditions
  }
}
