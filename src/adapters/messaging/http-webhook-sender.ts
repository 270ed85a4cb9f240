import { createHmac, randomBytes } from 'node:crypto'
import { ProviderError } from '../../application/ports/provider-error'
import type { WebhookHostPolicy, WebhookRequest, WebhookSecrets, WebhookSender } from '../../application/ports/webhooks'
import { InvalidError } from '../../domain/errors'
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

const REFUSED =
  'must name a host this service may reach: not a loopback, private or link-local address, and one of the allowed hosts when the deployment names them'

/**
 * Posts events over HTTP. Redirects are not followed (a 3xx is a failed try), the answer's body is not read,
 * and the host must pass the deployment's rules at each try; for http the connection goes to the address
 * checked, so DNS cannot answer one address to the check and another to the connection.
 */
export class HttpWebhookSender implements WebhookSender, WebhookHostPolicy {
  constructor(
    private readonly hosts: OutboundHostPolicy,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {}

  async check(url: string): Promise<void> {
    if (!(await this.hosts.addressFor(new URL(url).hostname))) throw InvalidError.field('/url', REFUSED)
  }

  async send(request: WebhookRequest): Promise<{ status: number }> {
    const url = new URL(request.url)
    const address = await this.hosts.addressFor(url.hostname)
    if (!address) throw new ProviderError(FAILED, 'the deployment does not allow this host', false)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'intake-webhooks',
      'webhook-id': request.id,
      'webhook-timestamp': String(Math.floor(request.timestamp.getTime() / 1000)),
    }
    headers['webhook-signature'] = webhookSignature(request.secret, request.id, Number(headers['webhook-timestamp']), request.body)
    const target = new URL(url)
    if (url.protocol === 'http:' && address !== url.hostname.replace(/^\[|\]$/g, '').toLowerCase()) {
      headers.host = url.host
      target.hostname = address.includes(':') ? `[${address}]` : address
    }
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      await response.body?.cancel().catch(() => undefined)
      return { status: response.status }
    } catch (error) {
      // The receiver may have taken the event before the answer was lost: the retry carries the same webhook-id.
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'the endpoint did not answer in time'
          : 'the endpoint could not be reached'
      throw new ProviderError(FAILED, reason, true, true)
    }
  }
}
