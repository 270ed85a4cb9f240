import type { FieldError } from '../../domain/errors'
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

/**
 * The key's shape each provider's sender reads: an SMTP URL for smtp, ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION
 * for ses, any text for the others. Part of the senders' contract, checked before settings are kept.
 */
export function apiKeyProblems(provider: EmailProvider, apiKey: string): FieldError[] {
  if (provider === 'smtp') {
    const ok = URL.canParse(apiKey) && ['smtp:', 'smtps:'].includes(new URL(apiKey).protocol) && new URL(apiKey).hostname !== ''
    return ok ? [] : [{ path: '/apiKey', message: 'must be an SMTP URL such as smtp://user:pass@host:587 or smtps://…' }]
  }
  if (provider === 'ses') {
    return parseSesKey(apiKey) ? [] : [{ path: '/apiKey', message: 'must be ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION' }]
  }
  return apiKey.trim() === '' ? [{ path: '/apiKey', message: 'must not be empty' }] : []
}

export function parseSesKey(apiKey: string): { accessKeyId: string; secretAccessKey: string; region: string } | undefined {
  const parts = apiKey.split(':')
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined
  const [accessKeyId, secretAccessKey, region] = parts as [string, string, string]
  return /^[a-z]{2}(-[a-z]+)+-\d$/.test(region) ? { accessKeyId, secretAccessKey, region } : undefined
}
