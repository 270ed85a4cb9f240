import type { Actor } from '../../domain/auth/actor'
import type { Interaction } from '../../domain/needs/interaction'
import { redactInteraction } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { findVisibleNeed } from './find-need'

// docs/api.md "Needs": notes and SMS of a need, oldest first
export class ListNeedInteractions {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, needId: string): Promise<Interaction[]> {
    authorize(actor, 'needs:read')
    const need = await findVisibleNeed(this.repositories, actor, needId)
    const interactions = await this.repositories.interactions.listByNeed(actor.organizationId, need.id)
    return interactions.map((interaction) => redactInteraction(actor, need, interaction))
  }
}
