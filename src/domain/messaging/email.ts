import type { FieldError } from '../errors'
import { EMAIL, EMAIL_MEANING, FieldChecks, NAME, type TextRule } from '../shared/fields'

// docs/api/organization.md "Organization settings"
export const EMAIL_PROVIDERS = ['smtp', 'postmark', 'ses', 'sendgrid'] as const
export type EmailProvider = (typeof EMAIL_PROVIDERS)[number]

/** What a provider needs to send: the key in clear, only ever in memory. */
export interface EmailProviderSettings {
  provider: EmailProvider
  apiKey: string
  fromEmail: string
  fromName?: string
}

/** How settings are kept: the key sealed (AES-256-GCM), its last four characters for people to recognize it. */
export interface StoredEmailSettings {
  organizationId: string
  provider: EmailProvider
  sealedApiKey: string
  apiKeyLast4: string
  fromEmail: string
  fromName?: string
  updatedAt: Date
}

/** The provider's secret; its shape per provider is the provider adapters' concern (src/application/ports/email.ts). */
export const API_KEY = { minLength: 1, maxLength: 2000 } as const satisfies TextRule

/** The problems of proposed email settings; a test message also names its recipient (`toEmail`). */
export function emailSettingsErrors(
  input: Omit<EmailProviderSettings, 'apiKey'> & { apiKey?: string; toEmail?: string },
  purpose: 'save' | 'test',
): FieldError[] {
  const checks = new FieldChecks()
    .oneOf('/provider', input.provider, EMAIL_PROVIDERS)
    .text('/apiKey', input.apiKey, API_KEY)
    .text('/fromEmail', input.fromEmail, EMAIL, { meaning: EMAIL_MEANING })
    .text('/fromName', input.fromName, NAME, { presence: 'optional' })
  if (purpose === 'test') checks.text('/toEmail', input.toEmail, EMAIL, { meaning: EMAIL_MEANING })
  return checks.errors
}

/**
 * Which mail a message is: the one thing of it, with its id and length, that the log fallback writes
 * (docs/observability.md "Logs"); its address, subject and text may name a person or carry a link's token.
 */
export type EmailTemplate =
  | 'invitation'
  | 'password_reset'
  | 'need_notification'
  | 'daily_digest'
  | 'requester_confirmation'
  | 'settings_test'

export interface EmailMessage {
  template: EmailTemplate
  to: string
  subject: string
  text: string
  /** A mail the metrics count apart: `notification`, one telling staff about needs (docs/api/organization.md "Notifications"). */
  kind?: 'notification'
}

export function lastFour(secret: string): string {
  return secret.slice(-4)
}
