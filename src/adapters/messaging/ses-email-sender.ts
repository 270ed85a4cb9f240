import type { Clock } from '../../application/ports/clock'
import type { EmailSender } from '../../application/ports/email'
import { parseSesKey } from '../../domain/messaging/email'
import type { EmailMessage, EmailProviderSettings } from '../../domain/messaging/email'
import { signAwsRequest } from './aws-sigv4'
import { callEmailApi, emailRefused, fromHeader, PROVIDER_TIMEOUT_MS, reasonOf } from './provider-failure'

/** Amazon SES v2 SendEmail, signed with SigV4; the key is ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION. */
export class SesEmailSender implements EmailSender {
  readonly provider = 'ses' as const

  constructor(
    private readonly clock: Clock,
    private readonly endpointFor: (region: string) => string = (region) => `https://email.${region}.amazonaws.com`,
  ) {}

  async send(settings: EmailProviderSettings, message: EmailMessage) {
    const credentials = parseSesKey(settings.apiKey)
    if (!credentials) throw emailRefused('SES', 400, 'the key is not ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION', [settings.apiKey])
    const secrets = [settings.apiKey, credentials.secretAccessKey]
    const url = new URL('/v2/email/outbound-emails', this.endpointFor(credentials.region))
    const body = JSON.stringify({
      FromEmailAddress: fromHeader(settings.fromEmail, settings.fromName),
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: { Subject: { Data: message.subject, Charset: 'UTF-8' }, Body: { Text: { Data: message.text, Charset: 'UTF-8' } } },
      },
    })
    const headers = signAwsRequest(credentials, 'ses', { method: 'POST', url, body, contentType: 'application/json' }, this.clock.now())
    const response = await callEmailApi('SES', secrets, () =>
      fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) }),
    )
    if (!response.ok) throw emailRefused('SES', response.status, await reasonOf(response, (b) => b.message ?? b.Message), secrets)
    const result = (await response.json().catch(() => ({}))) as { MessageId?: string }
    return result.MessageId ? { messageId: result.MessageId } : {}
  }
}
