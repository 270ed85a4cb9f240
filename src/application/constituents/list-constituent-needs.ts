import { seesPartner, type Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'

/**
 * docs/constituents.md: every need of the constituent in the organization, so staff see the whole
 * history; needs outside a partner role's own partner come back with their `customFields` emptied.
 */
export class ListConstituentNeeds {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, constituentId: string, page: PageRequest): Promise<Page<Need>> {
    authorize(actor, 'constituents:read')
    authorize(actor, 'needs:read')
    if (!(await this.repositories.constituents.findById(actor.organizationId, constituentId))) throw new NotFoundError('Constituent')
    const result = await this.repositories.needs.list(actor.organizationId, { constituentId }, page)
    const items = result.items.map((need) => redactNeed(actor, seesPartner(actor, need.partnerId) ? need : { ...need, customFields: {} }))
    return { ...result, items }
  }
}
