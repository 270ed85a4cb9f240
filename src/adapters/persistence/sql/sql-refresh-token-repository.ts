import { and, eq, isNull } from 'drizzle-orm'
import type { RefreshTokenRecord, RefreshTokenRepository, Rotation } from '../../../application/ports/repositories/refresh-token-repository'
import { SqlRepository, nullable, present } from './sql-repository'

export class SqlRefreshTokenRepository extends SqlRepository implements RefreshTokenRepository {
  async insert(t: RefreshTokenRecord) {
    await this.db.insert(this.tables.refreshTokens).values({
      ...t,
      rotatedAt: nullable(t.rotatedAt),
      revokedAt: nullable(t.revokedAt),
      replacedBy: nullable(t.replacedBy),
      rotatedFrom: nullable(t.rotatedFrom),
    })
  }
  async findByHash(tokenHash: string) {
    const [row] = await this.db.select().from(this.tables.refreshTokens).where(eq(this.tables.refreshTokens.tokenHash, tokenHash)).limit(1)
    return row ? (present(row) as RefreshTokenRecord) : undefined
  }
  async markRotated(id: string, at: Date, rotation?: Rotation) {
    // Conditional update: of two concurrent rotations only one changes the row.
    const rows = await this.db
      .update(this.tables.refreshTokens)
      .set({ rotatedAt: at, replacedBy: rotation?.successorId ?? null, rotatedFrom: rotation?.from ?? null })
      .where(and(eq(this.tables.refreshTokens.id, id), isNull(this.tables.refreshTokens.rotatedAt)))
      .returning({ id: this.tables.refreshTokens.id })
    return rows.length === 1
  }
  async replaceSuccessor(id: string, successorId: string) {
    await this.db.update(this.tables.refreshTokens).set({ replacedBy: successorId }).where(eq(this.tables.refreshTokens.id, id))
  }
  async revokeFamily(familyId: string, at: Date) {
    await this.db
      .update(this.tables.refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(this.tables.refreshTokens.familyId, familyId), isNull(this.tables.refreshTokens.revokedAt)))
  }
  async revokeMember(organizationId: string, memberId: string, at: Date) {
    const t = this.tables.refreshTokens
    await this.db
      .update(t)
      .set({ revokedAt: at })
      .where(and(eq(t.organizationId, organizationId), eq(t.memberId, memberId), isNull(t.revokedAt)))
  }
}
