import type { Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import { authorize } from '../auth/authorize'
import type { EmailChangeOutcome, EmailChanges } from '../members/email-changes'
import type { UnitOfWork } from '../ports/unit-of-work'

/** docs/api/access.md "Changing an email": the caller's own new address, confirmed by a link mailed to it. */
export class RequestEmailChange {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly changes: EmailChanges,
  ) {}

  async execute(actor: Actor, input: { email: string }): Promise<EmailChangeOutcome> {
    authorize(actor, 'profile:update')
    return this.unitOfWork.run(async (r) => {
      const member = await r.members.findById(actor.organizationId, actor.memberId)
      if (!member) throw new NotFoundError('Member')
      return this.changes.propose(r, actor, member, input.email)
    })
  }
}
