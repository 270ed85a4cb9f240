import type { EmailSender } from '../../application/ports/email'
import type { EmailMessage, EmailProviderSettings } from '../../domain/messaging/email'
import { callEmailApi, emailRefused, fromHeader, PROVIDER_TIMEOUT_MS, reasonOf } from './provider-failure'

/** Postmark's email API: one JSON POST, the server token in X-Postmark-Server-Token. */
export class PostmarkEmailSender implements EmailSender {
  readonly provider = 'postmark' as const

  constructor(private readonly baseUrl = 'https://api.postmarkapp.com') {}

  async send(settings: EmailProviderSettings, message: EmailMessage) {
    const response = await callEmailApi('Postmark', [settings.apiKey], () =>
      fetch(`${this.baseUrl}/email`, {
        method: 'POST',
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        headers: { accept: 'application/json', 'content-type': 'application/json', 'x-postmark-server-token': settings.apiKey },
        body: JSON.stringify({
          From: fromHeader(settings.fromEmail, settings.fromName),
          To: message.to,
          Subject: message.subject,
          TextBody: message.text,
          MessageStream: 'outbound',
        }),
      }),
    )
    if (!response.ok) throw emailRefused('Postmark', response.status, await reasonOf(response, (b) => b.Message), [settings.apiKey])
    const body = (await response.json().catch(() => ({}))) as { MessageID?: string }
    return body.MessageID ? { messageId: body.MessageID } : {}
  }
}
