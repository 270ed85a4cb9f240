export interface OutgoingSms {
  /** Whose text it is. */
  organizationId: string
  from: string
  to: string
  body: string
  /** Where the provider reports delivery (our status webhook). */
  statusCallbackUrl?: string
}

/**
 * The SMS provider (Twilio, or the log). Refusals and failures are thrown as ProviderError
 * ('SMS provider error'), retryable for network errors, 429 and 5xx.
 */
export interface SmsSender {
  send(sms: OutgoingSms): Promise<{ providerMessageId: string }>
  /**
   * The provider's ids of messages it accepted from `from` to `to` with exactly `body` since `since`:
   * how a send whose outcome was lost in a crash is told apart from one that never left.
   */
  findSent(query: { from: string; to: string; body: string; since: Date }): Promise<string[]>
}

/** Checks that a webhook request really comes from the provider (X-Twilio-Signature). */
export interface SmsWebhookVerifier {
  isAuthentic(url: string, params: Record<string, string>, signature: string | undefined): boolean
}
