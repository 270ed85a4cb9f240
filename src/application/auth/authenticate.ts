import { maySignIn } from '../../domain/members/member'
import type { Actor } from '../../domain/auth/actor'
import { UnauthorizedError } from '../../domain/errors'
import type { Repositories } from '../ports/repositories'
import type { AccessTokens } from '../ports/access-tokens'

/**
 * Turns a bearer token into the acting member. Role, partner and profiles come from the member's current
 * record, not the token, so a demoted or removed member loses rights at once (docs/api/access.md "Tokens"); a token of a
 * session that ended (logout, a revoked refresh-token family) stops working at once too.
 */
export class Authenticate {
  constructor(
    private readonly repositories: Repositories,
    private readonly accessTokens: AccessTokens,
  ) {}

  async execute(bearerToken: string | undefined): Promise<Actor> {
    if (bearerToken === undefined) throw UnauthorizedError.token('missing')
    const claims = this.accessTokens.verify(bearerToken)
    if (typeof claims === 'string') throw UnauthorizedError.token(claims)
    // One lookup: the member, only while the token's session is live (logout ends the access token too).
    const member = await this.repositories.members.findInSession(claims.organizationId, claims.memberId, claims.sessionId)
    if (!member || !maySignIn(member)) throw UnauthorizedError.token('ended')
    return {
      memberId: member.id,
      organizationId: member.organizationId,
      role: member.role,
      profiles: member.profiles,
      ...(member.partnerId ? { partnerId: member.partnerId } : {}),
    }
  }
}
