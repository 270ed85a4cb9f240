import type { RefreshTokenRecord, RefreshTokenRepository } from '../../../application/ports/repositories/refresh-token-repository'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryRefreshTokenRepository extends MemoryRepository implements RefreshTokenRepository {
  async insert(token: RefreshTokenRecord) {
    this.t.refreshTokens.set(token.id, copy(token))
  }
  async findByHash(tokenHash: string) {
    return copy([...this.t.refreshTokens.values()].find((token) => token.tokenHash === tokenHash))
  }
  async markRotated(id: string, at: Date) {
    const token = this.t.refreshTokens.get(id)
    if (!token || token.rotatedAt) return false
    token.rotatedAt = at
    return true
  }
  async revokeFamily(familyId: string, at: Date) {
    for (const token of this.t.refreshTokens.values()) if (token.familyId === familyId && !token.revokedAt) token.revokedAt = at
  }
  async revokeMember(organizationId: string, memberId: string, at: Date) {
    for (const token of this.t.refreshTokens.values()) {
      if (token.organizationId === organizationId && token.memberId === memberId && !token.revokedAt) token.revokedAt = at
    }
  }
}
