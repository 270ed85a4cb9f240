import { maySignIn } from '../../domain/members/member'
import { UnauthorizedError } from '../../domain/errors'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { RefreshTokenRecord, Rotation } from '../ports/repositories/refresh-token-repository'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'
import type { TokenPair, TokenPairIssuer } from './token-pair'

/**
 * How long after a rotation the token it replaced may be presented again, from the renewal's own client
 * address and as long as the new one was never used: the answer that carried the new one was lost (a reload
 * or a dropped connection in the middle of the renewal), and the browser still holds the old cookie.
 */
export const LOST_RENEWAL_GRACE_MS = 30_000

/**
 * Trades a refresh token for a new pair (docs/api/access.md "Tokens"). The old token stops working; presenting a token
 * that was already rotated means it leaked, so the whole family is revoked, unless its renewal's answer was
 * lost (`LOST_RENEWAL_GRACE_MS`).
 */
export class RefreshSession {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly secrets: SecretTokens,
    private readonly tokens: TokenPairIssuer,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  /** `from`: the client address the renewal comes from (as login's). */
  async execute(refreshToken: string, from = 'unknown'): Promise<TokenPair> {
    const now = this.clock.now()
    const outcome = await this.unitOfWork.run(async (r) => {
      const record = await r.refreshTokens.findByHash(this.secrets.digest(refreshToken))
      if (!record || record.revokedAt || record.expiresAt <= now) return undefined
      const rotation = { successorId: this.ids.next(), from }
      const rotated = record.rotatedAt
        ? await this.renewedAgain(r, record, now, rotation)
        : await r.refreshTokens.markRotated(record.id, now, rotation)
      if (!rotated) {
        await r.refreshTokens.revokeFamily(record.familyId, now)
        // By nobody known: whoever presented the token may not be the member.
        await this.audit.record(
          r,
          { organizationId: record.organizationId },
          { action: 'revoke_session', recordType: 'member', recordId: record.memberId },
        )
        return 'reused' as const
      }
      const member = await r.members.findById(record.organizationId, record.memberId)
      if (!member || !maySignIn(member)) return undefined
      return this.tokens.issue(r, member, record.familyId, rotation.successorId)
    })
    // The revocation above must commit, so the refusal is thrown only after the transaction.
    if (outcome === undefined || outcome === 'reused') throw new UnauthorizedError('Invalid refresh token')
    return outcome
  }

  /**
   * A rotated token presented again: a renewal whose answer was lost when it comes soon after, from the same
   * client address, and the token it was rotated to was never used. That one is retired unused (presenting it
   * later counts as a reuse) and the new one takes its place. Anything else is a reuse.
   */
  private async renewedAgain(r: Repositories, record: RefreshTokenRecord, now: Date, rotation: Rotation): Promise<boolean> {
    const lost =
      record.replacedBy && record.rotatedFrom === rotation.from && now.getTime() - record.rotatedAt!.getTime() <= LOST_RENEWAL_GRACE_MS
    if (!lost || !(await r.refreshTokens.markRotated(record.replacedBy!, now))) return false
    await r.refreshTokens.replaceSuccessor(record.id, rotation.successorId)
    return true
  }
}
