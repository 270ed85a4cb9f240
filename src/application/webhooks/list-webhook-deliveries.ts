import type { Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import type { OutboxMessage, OutboxStatus } from '../../domain/messaging/outbox'
import type { Page, PageRequest } from '../../domain/shared/page'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'

// docs/events.md "Deliveries": what an organization sees of each event sent to one of its endpoints
export interface WebhookDelivery {
  /** The `webhook-id`, the same on every try. */
  id: string
  eventType: string
  status: OutboxStatus
  /** Tries made so far (a try in flight not counted). */
  attempts: number
  /** The HTTP status the endpoint answered to the latest try; absent before one, or when none came. */
  lastStatusCode?: number
  lastError?: string
  /** While pending: when the next try is due. */
  nextAttemptAt?: Date
  createdAt: Date
  deliveredAt?: Date
}

function deliveryOf(message: OutboxMessage): WebhookDelivery {
  const eventType = message.payload.channel === 'webhook' ? message.payload.webhook.type : ''
  return {
    id: message.id,
    eventType,
    status: message.status,
    // The outbox counts failed tries; the one that succeeded counts too.
    attempts: message.attempts + (message.status === 'sent' ? 1 : 0),
    ...(message.responseStatus !== undefined ? { lastStatusCode: message.responseStatus } : {}),
    ...(message.lastError !== undefined ? { lastError: message.lastError } : {}),
    ...(message.status === 'pending' ? { nextAttemptAt: message.nextAttemptAt } : {}),
    createdAt: message.createdAt,
    ...(message.sentAt ? { deliveredAt: message.sentAt } : {}),
  }
}

export class ListWebhookDeliveries {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, endpointId: string, page: PageRequest): Promise<Page<WebhookDelivery>> {
    authorize(actor, 'webhooks:manage')
    if (!(await this.repositories.webhookEndpoints.findById(actor.organizationId, endpointId))) throw new NotFoundError('Webhook endpoint')
    const found = await this.repositories.outbox.listWebhookDeliveries(actor.organizationId, endpointId, page)
    return { items: found.items.map(deliveryOf), total: found.total }
  }
}
