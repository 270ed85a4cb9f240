import type { RefreshTokenRecord, RefreshTokenRepository, Rotation } from '../../../application/ports/repositories/refresh-token-repository'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryRefreshTokenRepository extends MemoryRepository implements RefreshTokenRepository {
  async insert(token: RefreshTokenRecord) {
    this.t.refreshTokens.set(token.id, copy(token))
  }
  async findByHash(tokenHash: string) {
    return copy([...this.t.refreshTokens.values()].find((token) => token.tokenHash === tokenHash))
  }
  async markRotated(id: string, at: Date, rotation?: Rotation) {
    const token = this.t.refreshTokens.get(id)
    if (!token || token.rotatedAt) return false
    token.rotatedAt = at
    if (rotation) Object.assign(token, { replacedBy: rotation.successorId, rotatedFrom: rotation.from })
    return true
  }
  async replaceSuccessor(id: string, successorId: string) {
    const token = this.t.refreshTokens.get(id)
    if (token) token.replacedBy = successorId
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
