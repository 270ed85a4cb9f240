import type { Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { Texting, TextingStatus } from '../sms/texting'
import { findVisibleNeed } from './find-need'

/** One need, with whether its person may be texted now (docs/api/needs.md "Texting a need"). */
export class GetNeed {
  constructor(
    private readonly repositories: Repositories,
    private readonly texting: TextingStatus,
  ) {}

  async execute(actor: Actor, idOrReference: string): Promise<Need & Texting> {
    authorize(actor, 'needs:read')
    const need = await findVisibleNeed(this.repositories, actor, idOrReference)
    const constituent = need.constituentId
      ? await this.repositories.constituents.findById(actor.organizationId, need.constituentId)
      : undefined
    return { ...redactNeed(actor, need), ...(await this.texting.of(this.repositories, actor.organizationId, constituent?.phone)) }
  }
}
