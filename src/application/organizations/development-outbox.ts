import type { Actor } from '../../domain/auth/actor'
import type { UnsentMessage } from '../../domain/messaging/development-outbox'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'

// docs/api/organization.md "Development outbox"

/** What the service would have sent with no provider set, newest first: the organization's admins read it instead of the log. */
export class ListUnsentMessages {
  constructor(private readonly repositories: Repositories) {}

  execute(actor: Actor, page: PageRequest): Promise<Page<UnsentMessage>> {
    authorize(actor, 'organization:settings')
    return this.repositories.developmentOutbox.list(actor.organizationId, page)
  }
}
