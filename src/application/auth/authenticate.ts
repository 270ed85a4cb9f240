import type { Actor } from '../../domain/auth/actor'
import { UnauthorizedError } from '../../domain/errors'
import type { Repositories } from '../ports/repositories'
import type { AccessTokens } from '../ports/security'

/**
 * Turns a bearer token into the acting member. Role, partner and profiles come from the member's current
 * record, not the token, so a demoted or removed member loses rights at once (contract §2).
 */
export class Authenticate {
  constructor(
    private readonly repositories: Repositories,
    private readonly accessTokens: AccessTokens,
  ) {}

  async execute(bearerToken: string | undefined): Promise<Actor> {
    const claims = bearerToken ? this.accessTokens.verify(bearerToken) : undefined
    if (!claims) throw new UnauthorizedError()
    const member = await this.repositories.members.findById(claims.organizationId, claims.memberId)
    if (!member || !member.isConfirmed) throw new UnauthorizedError()
    return {
      memberId: member.id,
      organizationId: member.organizationId,
      role: member.role,
      profiles: member.profiles,
      ...(member.partnerId ? { partnerId: member.partnerId } : {}),
    }
  }
}
