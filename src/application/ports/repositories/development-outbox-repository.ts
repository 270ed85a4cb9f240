import type { UnsentMessage } from '../../../domain/messaging/development-outbox'
import type { Page, PageRequest } from '../../../domain/shared/page'

/** What would have been sent with no provider set (docs/api/organization.md "Development outbox"), per organization. */
export interface DevelopmentOutboxRepository {
  insert(message: UnsentMessage): Promise<void>
  /** Newest first, `id` as tie-break. */
  list(organizationId: string, page: PageRequest): Promise<Page<UnsentMessage>>
  /** Removes the organization's messages to this phone or email (an erasure); answers how many went. */
  forgetMessagesTo(organizationId: string, to: { phone?: string; email?: string }): Promise<number>
  /** Removes up to `limit` messages, of any organization, kept at `before` or earlier; answers how many went. */
  purge(before: Date, limit: number): Promise<number>
}
