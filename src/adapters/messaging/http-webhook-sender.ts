import { createHmac, randomBytes } from 'node:crypto'
import type { WebhookHostPolicy, WebhookRequest, WebhookSecrets, WebhookSender } from '../../application/ports/webhooks'
import { checkAllowedHost, postToAllowedHost } from './outbound-post'
import type { OutboundHostPolicy } from './smtp-host-policy'

const FAILED = 'Webhook delivery failed' as const
const SECRET_PREFIX = 'whsec_'

/** A receiver has this long to answer, well inside the outbox's claim lease (docs/events.md). */
export const WEBHOOK_TIMEOUT_MS = 10_000

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256, under the secret's decoded bytes, of `id.timestamp.body`. */
export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`
}

/** `whsec_` and 32 random bytes in base64, the form Standard Webhooks libraries read. */
export class StandardWebhookSecrets implements WebhookSecrets {
  generate(): string {
    return SECRET_PREFIX + randomBytes(32).toString('base64')
  }
}

/**
 * Posts events over HTTP (postToAllowedHost: the deployment's host rules at each try, no redirects followed,
 * so a 3xx is a failed try); the answer's body is not read.
 */
export class HttpWebhookSender implements WebhookSender, WebhookHostPolicy {
  constructor(
    private readonly hosts: OutboundHostPolicy,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {}

  async check(url: string): Promise<void> {
    await checkAllowedHost(this.hosts, url, '/url')
  }

  async send(request: WebhookRequest): Promise<{ status: number }> {
    const timestamp = Math.floor(request.timestamp.getTime() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'intake-webhooks',
      'webhook-id': request.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignature(request.secret, request.id, timestamp, request.body),
    }
    // The receiver may have taken the event before the answer was lost: the retry carries the same webhook-id.
    const response = await postToAllowedHost(this.hosts, FAILED, {
      url: request.url,
      headers,
      body: request.body,
      timeoutMs: this.timeoutMs,
    })
    await response.body?.cancel().catch(() => undefined)
    return { status: response.status }
  }
}
