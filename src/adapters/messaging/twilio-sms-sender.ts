import type Twilio from 'twilio'
import type { OutgoingSms, SmsSender, SmsWebhookVerifier } from '../../application/ports/sms'
import { ProviderError } from '../../application/ports/provider-error'
import { isRetryableStatus, PROVIDER_TIMEOUT_MS } from './provider-failure'

const TWILIO_API = 'https://api.twilio.com'
const SMS_ERROR = 'SMS provider error' as const

interface TwilioRequest {
  method: string
  uri: string
  username?: string
  password?: string
  headers?: Record<string, string>
  params?: Record<string, unknown>
  data?: Record<string, unknown>
  timeout?: number
}

/**
 * The twilio package's HTTP client replaced by fetch: it can point at a local Twilio-compatible mock
 * (TWILIO_API_BASE_URL), and it is what msw intercepts in tests. The package still shapes every request.
 */
class FetchTwilioHttpClient {
  constructor(private readonly baseUrl: string) {}

  async request(opts: TwilioRequest) {
    const url = new URL(opts.uri.replace(TWILIO_API, this.baseUrl))
    for (const [key, value] of Object.entries(opts.params ?? {})) if (value !== undefined) url.searchParams.append(key, String(value))
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.username && opts.password)
      headers.Authorization = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`
    const form = new URLSearchParams()
    for (const [key, value] of Object.entries(opts.data ?? {})) if (value !== undefined) form.append(key, String(value))
    const response = await fetch(url, {
      method: opts.method.toUpperCase(),
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      ...(opts.data ? { body: form } : {}),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    })
    return { statusCode: response.status, body: await response.text(), headers: Object.fromEntries(response.headers) }
  }
}

/**
 * The twilio package, loaded when a Twilio adapter is made, not with the service: one that never texts
 * keeps the 26 MB it takes in memory (docs/performance/exports-import-memory.md "Memory").
 * Synchronous, as a webhook's check is.
 */
function twilioPackage(): typeof Twilio {
  return require('twilio')
}

/** Twilio's Messages API through the twilio package (docs/api/organization.md "SMS"). */
export class TwilioSmsSender implements SmsSender {
  private readonly client: ReturnType<typeof Twilio>

  constructor(accountSid: string, authToken: string, baseUrl = TWILIO_API) {
    this.client = twilioPackage()(accountSid, authToken, { httpClient: new FetchTwilioHttpClient(baseUrl) as never })
  }

  async send(sms: OutgoingSms) {
    try {
      const message = await this.client.messages.create({
        from: sms.from,
        to: sms.to,
        body: sms.body,
        ...(sms.statusCallbackUrl ? { statusCallback: sms.statusCallbackUrl } : {}),
      })
      return { providerMessageId: message.sid }
    } catch (error) {
      throw providerError(error)
    }
  }

  async findSent(query: { from: string; to: string; body: string; since: Date }) {
    try {
      // Not filtered on DateSent: a text still queued at Twilio has none yet. The newest come first.
      const messages = await this.client.messages.list({ from: query.from, to: query.to, limit: 200 })
      return messages.filter((m) => m.body === query.body && m.dateCreated >= query.since).map((m) => m.sid)
    } catch (error) {
      throw providerError(error)
    }
  }
}

/** Twilio's refusal (RestException, with status) or a failure to reach it, as a ProviderError. */
function providerError(error: unknown): ProviderError {
  const failure = error as { status?: number; message?: string; code?: number }
  if (typeof failure.status === 'number') {
    const reason = `Twilio answered ${failure.status}${failure.code ? ` (error ${failure.code})` : ''}: ${failure.message ?? ''}`
    return new ProviderError(SMS_ERROR, reason.slice(0, 500), isRetryableStatus(failure.status))
  }
  return new ProviderError(SMS_ERROR, `Twilio did not answer: ${failure.message ?? String(error)}`.slice(0, 500), true, true)
}

/** X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted form parameters under the auth token. */
export class TwilioWebhookVerifier implements SmsWebhookVerifier {
  private readonly twilio = twilioPackage()

  constructor(private readonly authToken: string) {}

  isAuthentic(url: string, params: Record<string, string>, signature: string | undefined): boolean {
    return signature !== undefined && this.twilio.validateRequest(this.authToken, signature, url, params)
  }
}
