import type { EmailMessage, EmailProvider, EmailProviderSettings } from '../../domain/messaging/email'

/**
 * One email provider (SMTP, Postmark, SES, SendGrid). Refusals and failures are thrown as ProviderError
 * ('Failed to send email'), retryable for network errors, 429 and 5xx, with the provider's reason and no
 * secret in the message.
 */
export interface EmailSender {
  readonly provider: EmailProvider
  send(settings: EmailProviderSettings, message: EmailMessage): Promise<{ messageId?: string }>
}

/** Which hosts an organization's email settings may reach (EMAIL_ALLOWED_HOSTS, EMAIL_BLOCK_PRIVATE_HOSTS). */
export interface EmailHostPolicy {
  /** Throws InvalidError at /apiKey when the settings name a host the deployment refuses; nothing is contacted. */
  check(settings: EmailProviderSettings): Promise<void>
}

/** The outbox message a mail leaves as: its id, and the organization whose mail it is. */
export interface OutboxMail {
  outboxId: string
  organizationId: string
}

/** Where an organization's mail goes when it has no email settings (EMAIL_FALLBACK: the log, which keeps no personal data). */
export interface FallbackEmailSender {
  send(mail: OutboxMail, message: EmailMessage): Promise<{ messageId?: string }>
}
