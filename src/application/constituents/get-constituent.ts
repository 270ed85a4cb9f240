import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { NotFoundError } from '../../domain/errors'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { AuditTrail } from '../audit/audit-trail'

// docs/constituents.md: one constituent of the caller's organization, redacted like a search result
export class GetConstituent {
  constructor(
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
  ) {}

  /** `textsStoppedAt`: when the person's number opted out of the organization's texts (docs/api/needs.md "Texting a need"). */
  async execute(actor: Actor, id: string): Promise<Constituent & { textsStoppedAt?: Date }> {
    authorize(actor, 'constituents:read')
    const constituent = await this.repositories.constituents.findById(actor.organizationId, id)
    if (!constituent) throw new NotFoundError('Constituent')
    const visible = withoutHiddenContact(actor, constituent)
    await this.audit.constituentsRead(actor, [visible])
    const textsStoppedAt = constituent.phone
      ? await this.repositories.smsOptOuts.optedOutAt(actor.organizationId, constituent.phone)
      : undefined
    return { ...visible, ...(textsStoppedAt ? { textsStoppedAt } : {}) }
  }
}
