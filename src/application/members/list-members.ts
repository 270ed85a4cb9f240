import { scopeOf, type Actor } from '../../domain/auth/actor'
import type { MemberView } from '../../domain/members/member'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { memberView, partnersById } from './member-view'

// GET /api/members: the organization's members; a partner_admin sees its own partner's
export class ListMembers {
  constructor(private readonly repositories: Repositories) {}

  /** `active`: only the active (true) or the deactivated (false) members. */
  async execute(actor: Actor, page: PageRequest, filter: { active?: boolean } = {}): Promise<Page<MemberView>> {
    authorize(actor, 'members:list')
    const scope = scopeOf(actor)
    if (scope.kind === 'none') return { items: [], total: 0 }
    const scoped = scope.kind === 'partner' ? { ...filter, partnerId: scope.partnerId } : filter
    const result = await this.repositories.members.list(actor.organizationId, scoped, page)
    const partners = await partnersById(this.repositories, actor.organizationId)
    return { ...result, items: result.items.map((m) => memberView(m, partners)) }
  }
}
