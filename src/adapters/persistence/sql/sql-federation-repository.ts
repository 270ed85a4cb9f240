import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { FederationRepository } from '../../../application/ports/repositories/federation-repository'
import type { ReferralPartnerRepository } from '../../../application/ports/repositories/referral-partner-repository'
import type { FederationKey, PairingInvitation, PairingStatus, ReferralPartner } from '../../../domain/federation/referral-partner'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

function toPartner(row: typeof schema.referralPartners.$inferSelect): ReferralPartner {
  const { status, ...rest } = present(row)
  return { ...rest, status: status as PairingStatus }
}

export class SqlReferralPartnerRepository extends SqlRepository implements ReferralPartnerRepository {
  private get p() {
    return this.tables.referralPartners
  }
  async insert(partner: ReferralPartner) {
    await this.db.insert(this.p).values({ ...partner, endedAt: nullable(partner.endedAt) })
  }
  async findById(organizationId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(this.p)
      .where(and(eq(this.p.organizationId, organizationId), eq(this.p.id, id)))
    return row ? toPartner(row) : undefined
  }
  async findForMessage(id: string) {
    const [row] = await this.db.select().from(this.p).where(eq(this.p.id, id))
    return row ? toPartner(row) : undefined
  }
  async listActive(organizationId: string) {
    const rows = await this.db
      .select()
      .from(this.p)
      .where(and(eq(this.p.organizationId, organizationId), eq(this.p.status, 'active')))
      .orderBy(asc(this.p.createdAt), asc(this.p.id))
    return rows.map(toPartner)
  }
  async end(organizationId: string, id: string, at: Date) {
    const rows = await this.db
      .update(this.p)
      .set({ status: 'ended', endedAt: at })
      .where(and(eq(this.p.organizationId, organizationId), eq(this.p.id, id), eq(this.p.status, 'active')))
      .returning({ id: this.p.id })
    return rows.length === 1
  }
}

export class SqlFederationRepository extends SqlRepository implements FederationRepository {
  async findKey(organizationId: string) {
    const k = this.tables.federationKeys
    const [row] = await this.db.select().from(k).where(eq(k.organizationId, organizationId))
    return row as FederationKey | undefined
  }
  async insertKey(key: FederationKey) {
    await this.db.insert(this.tables.federationKeys).values(key).onConflictDoNothing()
  }
  async insertInvitation(invitation: PairingInvitation) {
    await this.db.insert(this.tables.pairingInvitations).values(invitation)
  }
  async takeInvitation(secretDigest: string, now: Date) {
    const i = this.tables.pairingInvitations
    const [row] = await this.db.delete(i).where(eq(i.secretDigest, secretDigest)).returning()
    return row && row.expiresAt > now ? (row as PairingInvitation) : undefined
  }
  async rememberMessage(pairingId: string, messageId: string, at: Date) {
    const s = this.tables.federationMessagesSeen
    const rows = await this.db
      .insert(s)
      .values({ pairingId, messageId, seenAt: at })
      .onConflictDoNothing()
      .returning({ messageId: s.messageId })
    return rows.length === 1
  }
  async purge(seenBy: Date, limit: number) {
    const s = this.tables.federationMessagesSeen
    const old = this.db.select({ pairingId: s.pairingId, messageId: s.messageId }).from(s).where(lte(s.seenAt, seenBy)).limit(limit)
    const seen = await this.db.delete(s).where(sql`(${s.pairingId}, ${s.messageId}) in (${old})`).returning({ messageId: s.messageId })
    const i = this.tables.pairingInvitations
    const expired = this.db
      .select({ secretDigest: i.secretDigest })
      .from(i)
      .where(lte(i.expiresAt, seenBy))
      .limit(Math.max(limit - seen.length, 0))
    const invitations = await this.db.delete(i).where(inArray(i.secretDigest, expired)).returning({ id: i.id })
    return seen.length + invitations.length
  }
}
