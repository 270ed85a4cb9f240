import { maySignIn } from '../../domain/members/member'
import { UnauthorizedError } from '../../domain/errors'
import type { Clock } from '../ports/clock'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { TokenPair, TokenPairIssuer } from './token-pair'

/**
 * Trades a refresh token for a new pair (docs/api/access.md "Tokens"). The old token stops working; presenting a token
 * that was already rotated means it leaked, so the whole family is revoked.
 */
export class RefreshSession {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly secrets: SecretTokens,
    private readonly tokens: TokenPairIssuer,
    private readonly clock: Clock,
  ) {}

  async execute(refreshToken: string): Promise<TokenPair> {
    const now = this.clock.now()
    const outcome = await this.unitOfWork.run(async (r) => {
      const record = await r.refreshTokens.findByHash(this.secrets.digest(refreshToken))
      if (!record || record.revokedAt || record.expiresAt <= now) return undefined
      if (record.rotatedAt || !(await r.refreshTokens.markRotated(record.id, now))) {
        await r.refreshTokens.revokeFamily(record.familyId, now)
        return 'reused' as const
      }
      const member = await r.members.findById(record.organizationId, record.memberId)
      if (!member || !maySignIn(member)) return undefined
      return this.tokens.issue(r, member, record.familyId)
    })
    // The revocation above must commit, so the refusal is thrown only after the transaction.
    if (outcome === undefined || outcome === 'reused') throw new UnauthorizedError('Invalid refresh token')
    return outcome
  }
}
