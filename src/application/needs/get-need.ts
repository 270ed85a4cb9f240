import type { Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { isAllowed } from '../../domain/auth/permissions'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { Texting, TextingStatus } from '../sms/texting'
import { findVisibleNeed } from './find-need'

/**
 * One need, with whether its person may be texted now (docs/api/needs.md "Texting a need"). Opened by a member who
 * may act on it (`needs:update`), a need marked for attention is no longer marked (docs/api/needs.md "Attention"):
 * it is answered as it was, so the member sees why it was, and it leaves everyone's list of needs waiting.
 */
export class GetNeed {
  constructor(
    private readonly repositories: Repositories,
    private readonly texting: TextingStatus,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(actor: Actor, idOrReference: string): Promise<Need & Texting> {
    authorize(actor, 'needs:read')
    const need = await findVisibleNeed(this.repositories, actor, idOrReference)
    if (need.needsAttention && isAllowed(actor, 'needs:update'))
      await this.unitOfWork.run((r) => r.needs.setAttention(actor.organizationId, need.id, false))
    const constituent = need.constituentId
      ? await this.repositories.constituents.findById(actor.organizationId, need.constituentId)
      : undefined
    return { ...redactNeed(actor, need), ...(await this.texting.of(this.repositories, actor.organizationId, constituent?.phone)) }
  }
}
