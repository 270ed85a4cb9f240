import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import { keptQuickReplies, quickRepliesErrors, type QuickReply } from '../../domain/organizations/quick-replies'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'

// docs/api/organization.md "Quick replies"
export interface QuickReplies {
  replies: QuickReply[]
}

/** Whoever may text reads them: they pick from them as they write. */
export class GetQuickReplies {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor): Promise<QuickReplies> {
    authorize(actor, 'needs:send-sms')
    const organization = await this.repositories.organizations.findById(actor.organizationId)
    if (!organization) throw new NotFoundError('Organization')
    return { replies: organization.quickReplies ?? [] }
  }
}

/** The list replaced whole, by an org_admin, as the other settings are. */
export class UpdateQuickReplies {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: QuickReplies): Promise<QuickReplies> {
    authorize(actor, 'organization:settings')
    InvalidError.throwIfAny(quickRepliesErrors(input.replies), 'The quick replies are not valid')
    const replies = keptQuickReplies(input.replies)
    return this.unitOfWork.run(async (r) => {
      const before = await r.organizations.findById(actor.organizationId)
      if (!before) throw new NotFoundError('Organization')
      const { quickReplies: _before, ...rest } = before
      // An empty list is kept as none, as an organization that never set one.
      await r.organizations.update({ ...rest, ...(replies.length > 0 ? { quickReplies: replies } : {}) })
      await this.audit.record(r, actor, { action: 'update', recordType: 'organization', recordId: before.id, fields: ['quickReplies'] })
      return { replies }
    })
  }
}
