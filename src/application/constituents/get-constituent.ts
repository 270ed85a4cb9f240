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

  async execute(actor: Actor, id: string): Promise<Constituent> {
    authorize(actor, 'constituents:read')
    const constituent = await this.repositories.constituents.findById(actor.organizationId, id)
    if (!constituent) throw new NotFoundError('Constituent')
    const visible = withoutHiddenContact(actor, constituent)
    await this.audit.constituentsRead(actor, [visible])
    return visible
  }
}
