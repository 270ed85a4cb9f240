import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import { passwordErrors } from '../../domain/members/member'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { PasswordHasher } from '../ports/password-hasher'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * docs/api/access.md "Members and invitations": the caller chooses a new password, proving the current one. Every
 * session of the member ends, this one too (a session opened with the old password is one its holder may not
 * be): the member logs in again with the new one.
 */
export class ChangePassword {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: { currentPassword: string; newPassword: string }): Promise<void> {
    authorize(actor, 'profile:update')
    InvalidError.throwIfAny(
      passwordErrors(input.newPassword).map((error) => ({ ...error, path: '/newPassword' })),
      'The new password is not valid',
    )
    const member = await this.unitOfWork.run((r) => r.members.findById(actor.organizationId, actor.memberId))
    if (!member) throw new NotFoundError('Member')
    if (!member.passwordHash || !(await this.passwords.verify(input.currentPassword, member.passwordHash))) {
      throw InvalidError.field('/currentPassword', 'This is not your current password')
    }
    if (input.currentPassword === input.newPassword)
      throw InvalidError.field('/newPassword', 'The new password is the current one: choose another')
    const passwordHash = await this.passwords.hash(input.newPassword)
    const now = this.clock.now()
    await this.unitOfWork.run(async (r) => {
      // Read again: the hashing took a while, and the record may have changed meanwhile (its password too).
      const current = await r.members.findById(actor.organizationId, actor.memberId)
      if (!current || current.passwordHash !== member.passwordHash)
        throw InvalidError.field('/currentPassword', 'This is not your current password')
      await r.members.update({ ...current, passwordHash })
      await r.refreshTokens.revokeMember(member.organizationId, member.id, now)
      await this.audit.record(r, actor, { action: 'change_password', recordType: 'member', recordId: member.id, fields: ['password'] })
    })
  }
}
