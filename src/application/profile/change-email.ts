import type { Actor } from '../../domain/auth/actor'
import { NotFoundError, TooManyRequestsError } from '../../domain/errors'
import { EMAIL_CHANGES_PER_HOUR } from '../../domain/members/invitation'
import { secondsUntilFree, sendWindowStart } from '../../domain/messaging/send-limits'
import { authorize } from '../auth/authorize'
import type { EmailChangeOutcome, EmailChanges } from '../members/email-changes'
import type { Clock } from '../ports/clock'
import type { UnitOfWork } from '../ports/unit-of-work'

/**
 * docs/api/access.md "Changing an email": the caller's own new address, confirmed by a link mailed to it; at most
 * `EMAIL_CHANGES_PER_HOUR` asked within the hour, counted from the member's `request_email_change` events after
 * locking its organization's row, so the limit holds across instances.
 */
export class RequestEmailChange {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly changes: EmailChanges,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { email: string }): Promise<EmailChangeOutcome> {
    authorize(actor, 'profile:update')
    return this.unitOfWork.run(async (r) => {
      const member = await r.members.findById(actor.organizationId, actor.memberId)
      if (!member) throw new NotFoundError('Member')
      const now = this.clock.now()
      await r.organizations.lockForUpdate(actor.organizationId)
      const filter = { action: 'request_email_change', recordType: 'member', recordId: member.id, since: sendWindowStart(now) } as const
      const wait = secondsUntilFree(await r.auditEvents.tally(actor.organizationId, filter), EMAIL_CHANGES_PER_HOUR, now)
      if (wait > 0)
        throw new TooManyRequestsError(wait, `You asked ${EMAIL_CHANGES_PER_HOUR} email changes within the hour; try again later`)
      return this.changes.propose(r, actor, member, input.email)
    })
  }
}
