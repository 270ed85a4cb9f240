import { webhookEventBody, type WebhookEventData, type WebhookEventType } from '../../domain/webhooks/webhook'
import type { WebhookSubscriber } from '../ports/repositories/webhook-endpoint-repository'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { Outbox } from '../messaging/outbox'

/**
 * Writes an event for each enabled endpoint of the organization that subscribes to it, inside the caller's
 * transaction (docs/events.md): a change that rolls back sends nothing, one that commits is delivered by the
 * outbox worker, each endpoint's copy on its own with its own `webhook-id`. Every event is also recorded once
 * for the live stream (docs/events.md "The live stream"), subscribed or not, in the same transaction.
 */
export class WebhookEvents {
  constructor(
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async emit(r: Repositories, organizationId: string, type: WebhookEventType, data: WebhookEventData): Promise<void> {
    await this.emitEach(r, organizationId, type, [data])
  }

  /** One event per item of `data` (an import's batch), the subscribed endpoints read once. */
  async emitEach(r: Repositories, organizationId: string, type: WebhookEventType, data: readonly WebhookEventData[]): Promise<void> {
    if (data.length === 0) return
    await this.emitTo(r, organizationId, await this.subscribers(r, organizationId, type), type, data)
  }

  /**
   * The enabled endpoints of the organization that subscribe to `type`: for a write that reads them with
   * what else it must read first (`emitTo` then writes the events), in one round trip with them.
   */
  subscribers(r: Repositories, organizationId: string, type: WebhookEventType): Promise<WebhookSubscriber[]> {
    return r.webhookEndpoints.subscribedTo(organizationId, type)
  }

  /** One event per item of `data` for each of `endpoints` (as `subscribers` answered them). */
  async emitTo(
    r: Repositories,
    organizationId: string,
    endpoints: readonly WebhookSubscriber[],
    type: WebhookEventType,
    data: readonly WebhookEventData[],
  ): Promise<void> {
    await r.liveEvents.append(organizationId, type, data, this.clock.now())
    for (const item of data) {
      const body = webhookEventBody(type, this.clock.now(), item)
      for (const endpoint of endpoints) await this.outbox.webhook(r, organizationId, { endpointId: endpoint.id, type, body })
    }
  }
}
