import { maySignIn } from '../../domain/members/member'
import type { Actor } from '../../domain/auth/actor'
import { UnauthorizedError } from '../../domain/errors'
import type { Repositories } from '../ports/repositories'
import type { AccessTokens } from '../ports/access-tokens'

/**
 * The member a bearer token acts for, and when the token stops working. Role, partner and profiles come from
 * the member's current record, not the token, so a demoted or removed member loses rights at once
 * (docs/api/access.md "Tokens"); a token of a session that ended (logout, a revoked refresh-token family)
 * stops working at once too.
 */
export async function sessionOf(
  repositories: Repositories,
  accessTokens: AccessTokens,
  bearerToken: string | undefined,
): Promise<{ actor: Actor; expiresAt: Date }> {
  if (bearerToken === undefined) throw UnauthorizedError.token('missing')
  const claims = accessTokens.verify(bearerToken)
  if (typeof claims === 'string') throw UnauthorizedError.token(claims)
  // One lookup: the member, only while the token's session is live (logout ends the access token too).
  const member = await repositories.members.findInSession(claims.organizationId, claims.memberId, claims.sessionId)
  if (!member || !maySignIn(member)) throw UnauthorizedError.token('ended')
  const actor: Actor = {
    memberId: member.id,
    organizationId: member.organizationId,
    role: member.role,
    profiles: member.profiles,
    ...(member.partnerId ? { partnerId: member.partnerId } : {}),
  }
  return { actor, expiresAt: claims.expiresAt }
}

/** Turns a bearer token into the acting member (`sessionOf`). */
export class Authenticate {
  constructor(
    private readonly repositories: Repositories,
    private readonly accessTokens: AccessTokens,
  ) {}

  async execute(bearerToken: string | undefined): Promise<Actor> {
    return (await sessionOf(this.repositories, this.accessTokens, bearerToken)).actor
  }
}
