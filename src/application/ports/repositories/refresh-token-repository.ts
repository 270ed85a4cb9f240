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
  /** The token it was rotated to; none for one retired unused (its renewal's answer was lost). */
  replacedBy?: string
  /** The client address of the renewal that rotated it. */
  rotatedFrom?: string
}

/** What a renewal rotates a token to, and where the renewal came from. */
export interface Rotation {
  successorId: string
  from: string
}

export interface RefreshTokenRepository {
  insert(token: RefreshTokenRecord): Promise<void>
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>
  /**
   * Marks the token rotated (by `rotation`, or retired unused without one); false when it already was (a
   * concurrent or replayed use).
   */
  markRotated(id: string, at: Date, rotation?: Rotation): Promise<boolean>
  /** Names the token a rotated one now stands replaced by. */
  replaceSuccessor(id: string, successorId: string): Promise<void>
  revokeFamily(familyId: string, at: Date): Promise<void>
  /** Ends every session of a member (a password reset): its access tokens stop working with them. */
  revokeMember(organizationId: string, memberId: string, at: Date): Promise<void>
}
