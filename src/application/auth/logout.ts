import type { Actor } from '../../domain/auth/actor'
import type { Clock } from '../ports/clock'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

/** Ends the session a refresh token belongs to. Idempotent: an unknown or foreign token changes nothing. */
export class Logout {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, refreshToken: string): Promise<void> {
    await this.unitOfWork.run(async (r) => {
      const record = await r.refreshTokens.findByHash(this.secrets.digest(refreshToken))
      if (record && record.memberId === actor.memberId && record.organizationId === actor.organizationId) {
        await r.refreshTokens.revokeFamily(record.familyId, this.clock.now())
        await this.audit.record(r, actor, { action: 'logout', recordType: 'member', recordId: actor.memberId })
      }
    })
  }
}
