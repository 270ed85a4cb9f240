import type { Actor } from '../../domain/auth/actor'
import type { NeedChange } from '../../domain/needs/need'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { findVisibleNeed } from './find-need'

// docs/api/needs.md "Needs": every recorded change of a need the caller may see, oldest first
export class ListNeedHistory {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, needIdOrReference: string, page: PageRequest): Promise<Page<NeedChange>> {
    authorize(actor, 'needs:read')
    const need = await findVisibleNeed(this.repositories, actor, needIdOrReference)
    return this.repositories.needs.listChanges(actor.organizationId, need.id, page)
  }
}
