/** One try of one event to one endpoint (docs/events.md). */
export interface WebhookRequest {
  url: string
  /** The endpoint's `whsec_…` secret, in clear only for the time of the call. */
  secret: string
  /** `webhook-id`: the outbox message's id, the same on every try. */
  id: string
  /** `webhook-timestamp`: when this try was made. */
  timestamp: Date
  body: string
}

/**
 * Posts one signed event (Standard Webhooks headers). Answers the endpoint's HTTP status, whatever it is;
 * throws ProviderError when no answer came (network error, timeout: retryable, outcome unknown) or when
 * the deployment's host rules refuse the URL (not retryable).
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<{ status: number }>
}

/** Which URLs an organization's webhook endpoints may name (WEBHOOK_ALLOWED_HOSTS, WEBHOOK_BLOCK_PRIVATE_HOSTS). */
export interface WebhookHostPolicy {
  /** Throws InvalidError at /url when the deployment refuses the URL's host; nothing is contacted. */
  check(url: string): Promise<void>
}

/** A new endpoint's signing secret, `whsec_` and the base64 of 32 random bytes. */
export interface WebhookSecrets {
  generate(): string
}
