import { DISABLE_AFTER_FAILED_DELIVERIES, type WebhookEndpoint } from '../../domain/webhooks/webhook'
import type { WebhookMessage } from '../../domain/messaging/outbox'
import type { Clock } from '../ports/clock'
import { ProviderError } from '../ports/provider-error'
import type { Repositories } from '../ports/repositories'
import type { SecretBox } from '../ports/secret-box'
import type { WebhookSender } from '../ports/webhooks'

const FAILED = 'Webhook delivery failed' as const

/**
 * The endpoint (or a referral partner's instance) answered, but not 2xx: tried again later (docs/events.md
 * "Retries"), its status kept.
 */
export class WebhookRefused extends ProviderError {
  constructor(
    readonly responseStatus: number,
    title: ProviderError['title'] = FAILED,
    receiver = 'the endpoint',
  ) {
    super(title, `${receiver} answered ${responseStatus}`, true)
  }
}

/**
 * One try of one webhook message, for the outbox dispatcher (docs/events.md): the endpoint is read at each
 * try, so a deleted or disabled one gets nothing more, and an edited URL applies to what still waits.
 */
export class WebhookDelivery {
  constructor(
    private readonly repositories: Repositories,
    private readonly box: SecretBox,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
  ) {}

  /** Answers the endpoint's 2xx status; throws ProviderError otherwise. */
  async send(organizationId: string, messageId: string, webhook: WebhookMessage): Promise<number> {
    const endpoint = await this.repositories.webhookEndpoints.findById(organizationId, webhook.endpointId)
    if (!endpoint) throw new ProviderError(FAILED, 'the endpoint was deleted', false)
    if (!endpoint.enabled) throw new ProviderError(FAILED, 'the endpoint is disabled', false)
    const { status } = await this.sender.send({
      url: endpoint.url,
      secret: this.box.open(endpoint.sealedSecret),
      id: messageId,
      timestamp: this.clock.now(),
      body: webhook.body,
    })
    if (status < 200 || status > 299) throw new WebhookRefused(status)
    return status
  }

  /**
   * Counts the endpoint's failed deliveries, in the transaction that records the outcome: a 2xx clears the
   * count; a delivery failed for good adds one, and DISABLE_AFTER_FAILED_DELIVERIES in a row disable it.
   */
  async recordOutcome(r: Repositories, organizationId: string, webhook: WebhookMessage, outcome: 'delivered' | 'failed'): Promise<void> {
    const change = async () => {
      const endpoint = await r.webhookEndpoints.findById(organizationId, webhook.endpointId)
      if (!endpoint?.enabled) return undefined
      return outcome === 'delivered' ? this.cleared(endpoint) : this.failedOnce(endpoint)
    }
    if (!(await change())) return
    // Read again under the organization's lock: two workers counting at once must not lose a failure.
    await r.organizations.lockForUpdate(organizationId)
    const next = await change()
    if (next) await r.webhookEndpoints.update(next)
  }

  private cleared(endpoint: WebhookEndpoint): WebhookEndpoint | undefined {
    return endpoint.consecutiveFailures === 0 ? undefined : { ...endpoint, consecutiveFailures: 0 }
  }

  private failedOnce(endpoint: WebhookEndpoint): WebhookEndpoint {
    const consecutiveFailures = endpoint.consecutiveFailures + 1
    const disable = consecutiveFailures >= DISABLE_AFTER_FAILED_DELIVERIES
    return {
      ...endpoint,
      consecutiveFailures,
      ...(disable ? { enabled: false, disabledAt: this.clock.now(), updatedAt: this.clock.now() } : {}),
    }
  }
}
