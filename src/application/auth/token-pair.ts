import type { Member } from '../../domain/members/member'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { AccessTokens } from '../ports/access-tokens'
import type { SecretTokens } from '../ports/secret-tokens'

// docs/api/access.md "Tokens"
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000

export interface TokenPair {
  accessToken: string
  refreshToken: string
  tokenType: 'Bearer'
  expiresIn: number
}

/**
 * Issues an access token and a refresh token; the refresh token joins `familyId` (a new one per login), which
 * is the session: the access token names it, and stops working when the family is revoked. A new session
 * (no family given: a login, an accepted invitation, a reset) is the member's last login.
 */
export class TokenPairIssuer {
  constructor(
    private readonly accessTokens: AccessTokens,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** `tokenId` names the new refresh token, when the caller must know it (the one a rotation points to). */
  async issue(r: Repositories, member: Member, session?: string, tokenId = this.ids.next()): Promise<TokenPair> {
    const refreshToken = this.secrets.generate()
    const now = this.clock.now()
    const familyId = session ?? this.ids.next()
    if (!session) await r.members.recordLogin(member.organizationId, member.id, now)
    await r.refreshTokens.insert({
      id: tokenId,
      familyId,
      memberId: member.id,
      organizationId: member.organizationId,
      tokenHash: this.secrets.digest(refreshToken),
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    })
    return {
      accessToken: this.accessTokens.issue({ memberId: member.id, organizationId: member.organizationId, sessionId: familyId }),
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: this.accessTokens.lifetimeSeconds,
    }
  }
}
