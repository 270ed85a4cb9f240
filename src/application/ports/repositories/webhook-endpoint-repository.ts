import type { Page, PageRequest } from '../../../domain/shared/page'
import type { WebhookEndpoint, WebhookEventType } from '../../../domain/webhooks/webhook'

/** An endpoint as a write that may cause an event needs it: which endpoint gets a copy. */
export type WebhookSubscriber = Pick<WebhookEndpoint, 'id'>

export interface WebhookEndpointRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>
  /** Saves url, events, enabled, the failure count and `disabledAt`. */
  update(endpoint: WebhookEndpoint): Promise<void>
  /** False when the organization has no such endpoint. */
  delete(organizationId: string, id: string): Promise<boolean>
  findById(organizationId: string, id: string): Promise<WebhookEndpoint | undefined>
  /** Newest first, `id` as tie-break. */
  list(organizationId: string, page: PageRequest): Promise<Page<WebhookEndpoint>>
  count(organizationId: string): Promise<number>
  /** The organization's enabled endpoints that subscribe to `type`, oldest first. */
  subscribedTo(organizationId: string, type: WebhookEventType): Promise<WebhookSubscriber[]>
}
