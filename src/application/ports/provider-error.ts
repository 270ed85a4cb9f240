/**
 * An email or SMS provider refused or failed (the senders' ports throw it); `title` names which, as the
 * answer shows it (docs/api/conventions.md "Errors"). Not a rule of the domain: a fact about the outside world.
 */
export class ProviderError extends Error {
  readonly kind = 'provider_failed' as const
  constructor(
    readonly title: 'Failed to send email' | 'SMS provider error' | 'Webhook delivery failed' | 'Partner instance failed',
    message: string,
    /** Worth trying again later: network errors, 429 and 5xx. */
    readonly retryable: boolean,
    /** No answer came back (network error, timeout): the provider may or may not have taken the message. */
    readonly outcomeUnknown = false,
  ) {
    super(message)
  }
}
