import { and, eq, isNull } from 'drizzle-orm'
import type { InvitationRepository } from '../../../application/ports/repositories/invitation-repository'
import type { Invitation } from '../../../domain/members/invitation'
import { SqlRepository, nullable, present } from './sql-repository'

export class SqlInvitationRepository extends SqlRepository implements InvitationRepository {
  async insert(i: Invitation) {
    await this.db
      .insert(this.tables.invitations)
      .values({ ...i, usedAt: nullable(i.usedAt), purpose: nullable(i.purpose), email: nullable(i.email) })
  }
  async findByDigest(tokenDigest: string) {
    const [row] = await this.db.select().from(this.tables.invitations).where(eq(this.tables.invitations.tokenDigest, tokenDigest)).limit(1)
    return row ? (present(row) as Invitation) : undefined
  }
  async markUsed(id: string, at: Date) {
    const rows = await this.db
      .update(this.tables.invitations)
      .set({ usedAt: at })
      .where(and(eq(this.tables.invitations.id, id), isNull(this.tables.invitations.usedAt)))
      .returning({ id: this.tables.invitations.id })
    return rows.length === 1
  }
  async voidUnused(organizationId: string, memberId: string, at: Date, purpose?: Invitation['purpose']) {
    const t = this.tables.invitations
    const ofPurpose = purpose === undefined ? undefined : eq(t.purpose, purpose)
    await this.db
      .update(t)
      .set({ usedAt: at })
      .where(and(eq(t.organizationId, organizationId), eq(t.memberId, memberId), isNull(t.usedAt), ofPurpose))
  }
}
