import type { Actor } from '../../domain/auth/actor'
import type { Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { findVisibleNeed } from './find-need'

export class GetNeed {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, idOrReference: string): Promise<Need> {
    authorize(actor, 'needs:read')
    return redactNeed(actor, await findVisibleNeed(this.repositories, actor, idOrReference))
  }
}
