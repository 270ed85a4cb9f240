import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { NotFoundError } from '../../domain/errors'
import { PAGE_LIMIT } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * docs/constituents.md "Constituents and households": the people of a constituent's household, the constituent
 * among them, oldest first, each redacted like a search result. A household is a family: the first 100 are
 * answered, as a page would be.
 */
export class GetHousehold {
  constructor(
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, constituentId: string): Promise<Constituent[]> {
    authorize(actor, 'constituents:read')
    const constituent = await this.repositories.constituents.findById(actor.organizationId, constituentId)
    if (!constituent) throw new NotFoundError('Constituent')
    const people = await this.repositories.constituents.listByHousehold(actor.organizationId, constituent.householdId)
    const visible = people.slice(0, PAGE_LIMIT.max).map((person) => withoutHiddenContact(actor, person))
    await this.audit.constituentsRead(actor, visible)
    return visible
  }
}
