/** A refresh token, kept only as a hash; tokens rotated from one login share a family. */
export interface RefreshTokenRecord {
  id: string
  familyId: string
  memberId: string
  organizationId: string
  tokenHash: string
  createdAt: Date
  expiresAt: Date
  rotatedAt?: Date
  revokedAt?: Date
}

export interface RefreshTokenRepository {
  insert(token: RefreshTokenRecord): Promise<void>
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>
  /** Marks the token rotated; false when it already was (a concurrent or replayed use). */
  markRotated(id: string, at: Date): Promise<boolean>
  revokeFamily(familyId: string, at: Date): Promise<void>
  /** Ends every session of a member (a password reset): its access tokens stop working with them. */
  revokeMember(organizationId: string, memberId: string, at: Date): Promise<void>
}
