import type { Actor } from '../../domain/auth/actor'
import type { Interaction } from '../../domain/needs/interaction'
import { redactInteraction, type InteractionView, type SentBy } from '../../domain/needs/redaction'
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
    const senders = await this.sendersOf(actor.organizationId, items)
    return {
      items: items.map((i) => redactInteraction(actor, need, i, i.sentByMemberId ? senders.get(i.sentByMemberId) : undefined)),
      total,
    }
  }

  /** The members who sent the page's texts, by id, each read once (a page holds a few of them). */
  private async sendersOf(organizationId: string, items: readonly Interaction[]): Promise<Map<string, SentBy>> {
    const ids = [...new Set(items.flatMap((i) => (i.sentByMemberId ? [i.sentByMemberId] : [])))]
    const members = await Promise.all(ids.map((id) => this.repositories.members.findById(organizationId, id)))
    return new Map(members.flatMap((m) => (m ? [[m.id, { id: m.id, fullName: m.fullName ?? m.email }] as const] : [])))
  }
}
