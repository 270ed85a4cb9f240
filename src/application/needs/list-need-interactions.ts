import type { Actor } from '../../domain/auth/actor'
import { redactInteraction, type InteractionView } from '../../domain/needs/redaction'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { findVisibleNeed } from './find-need'

// docs/api/needs.md "Needs": notes and SMS of a need, oldest first, a page at a time (a need may gather any number)
export class ListNeedInteractions {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, needId: string, page: PageRequest): Promise<Page<InteractionView>> {
    authorize(actor, 'needs:read')
    const need = await findVisibleNeed(this.repositories, actor, needId)
    const { items, total } = await this.repositories.interactions.listByNeed(actor.organizationId, need.id, page)
    return { items: items.map((interaction) => redactInteraction(actor, need, interaction)), total }
  }
}
