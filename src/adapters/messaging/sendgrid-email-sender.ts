import type { EmailSender } from '../../application/ports/email'
import type { EmailMessage, EmailProviderSettings } from '../../domain/messaging/email'
import { callEmailApi, emailRefused, PROVIDER_TIMEOUT_MS, reasonOf } from './provider-failure'

/** SendGrid's v3 mail/send: a bearer key, 202 with the message id in X-Message-Id. */
export class SendgridEmailSender implements EmailSender {
  readonly provider = 'sendgrid' as const

  constructor(private readonly baseUrl = 'https://api.sendgrid.com') {}

  async send(settings: EmailProviderSettings, message: EmailMessage) {
    const response = await callEmailApi('SendGrid', [settings.apiKey], () =>
      fetch(`${this.baseUrl}/v3/mail/send`, {
        method: 'POST',
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          personalizations: [{ to: [{ email: message.to }] }],
          from: { email: settings.fromEmail, ...(settings.fromName ? { name: settings.fromName } : {}) },
          subject: message.subject,
          content: [{ type: 'text/plain', value: message.text }],
        }),
      }),
    )
    if (!response.ok) {
      const reason = await reasonOf(response, (b) => b.errors?.map((e: { message?: string }) => e.message).join('; '))
      throw emailRefused('SendGrid', response.status, reason, [settings.apiKey])
    }
    const messageId = response.headers.get('x-message-id')
    return messageId ? { messageId } : {}
  }
}
