import { ProviderError } from '../../application/ports/provider-error'

const EMAIL = 'Failed to send email' as const

/** A provider call gives up after this, well inside the outbox's claim lease, so no send outlives its claim. */
export const PROVIDER_TIMEOUT_MS = 15_000

/** Network errors, throttling and server errors may pass; other refusals will not (docs/api/organization.md "SMS"). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500
}

/** A provider's refusal as a ProviderError, its reason cut short and cleaned of every secret given. */
export function emailRefused(
  provider: string,
  status: number | undefined,
  reason: string,
  secrets: readonly string[],
  retryable = status === undefined || isRetryableStatus(status),
): ProviderError {
  const cleaned = withoutSecrets(reason, secrets)
  const prefix = status ? `${provider} answered ${status}` : `${provider} could not be reached`
  return new ProviderError(EMAIL, `${prefix}: ${cleaned.slice(0, 500)}`, retryable)
}

/** Below this a "secret" (an SMTP user `un`) is a piece of ordinary words: hiding it would garble the text. */
const MIN_SECRET_LENGTH = 4
/** From this length a secret is removed wherever it appears, also inside a longer run of characters. */
const LONG_SECRET_LENGTH = 12

/**
 * The text with every secret replaced by `***`. Longest first, so a secret that contains another is removed
 * whole. A short secret is removed only where it stands alone (a user `expect` leaves "unexpectedly"
 * readable), a long one wherever it appears.
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  return [...secrets]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length)
    .reduce((cleaned, secret) => {
      const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const pattern = secret.length >= LONG_SECRET_LENGTH ? escaped : `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`
      return cleaned.replace(new RegExp(pattern, 'gu'), '***')
    }, text)
}

/** One call to a provider's HTTP API: a network failure or a timeout becomes a retryable ProviderError. */
export async function callEmailApi(provider: string, secrets: readonly string[], request: () => Promise<Response>): Promise<Response> {
  try {
    return await request()
  } catch (error) {
    throw emailRefused(provider, undefined, String(error), secrets)
  }
}

/** The reason in a provider's JSON error body, or its text. */
// biome-ignore lint/suspicious/noExplicitAny: each provider's error body has its own shape; `pick` reads it in a try
export async function reasonOf(response: Response, pick: (body: any) => unknown): Promise<string> {
  const text = await response.text()
  try {
    const reason = pick(JSON.parse(text))
    return typeof reason === 'string' && reason ? reason : text
  } catch {
    return text || response.statusText
  }
}

/** `Name <address>`, or the address alone. */
export function fromHeader(fromEmail: string, fromName: string | undefined): string {
  return fromName ? `"${fromName.replace(/["\\\r\n]/g, '')}" <${fromEmail}>` : fromEmail
}
