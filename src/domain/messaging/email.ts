import type { FieldError } from '../errors'
import { EMAIL, EMAIL_MEANING, FieldChecks, NAME, type TextRule } from '../shared/fields'

/** What one provider's key looks like: the check made before settings are kept, and its words for people. */
export interface EmailKeyFormat {
  fits(apiKey: string): boolean
  /** Why a key that does not fit is refused, at /apiKey. */
  problem: string
  /** The key's shape for people to follow (the document's description, the console's hint); none: the provider's own key. */
  shape?: string
}

const smtpUrl = (apiKey: string) => (URL.canParse(apiKey) ? new URL(apiKey) : undefined)
const anyText: EmailKeyFormat = { fits: (apiKey) => apiKey.trim() !== '', problem: 'must not be empty' }

/**
 * The email providers, one record each: the key's shape its sender reads, checked before settings are kept
 * (the senders are in src/adapters/messaging). The HTTP schema carries the shapes to the console (`x-shapes`).
 * docs/api/organization.md "Organization settings"
 */
export const EMAIL_KEY_FORMATS = {
  smtp: {
    fits: (apiKey) => ['smtp:', 'smtps:'].includes(smtpUrl(apiKey)?.protocol ?? '') && smtpUrl(apiKey)?.hostname !== '',
    problem: 'must be an SMTP URL such as smtp://user:pass@host:587 or smtps://…',
    shape: 'smtp://user:password@host:587',
  },
  postmark: anyText,
  ses: {
    fits: (apiKey) => parseSesKey(apiKey) !== undefined,
    problem: 'must be ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION',
    shape: 'ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION',
  },
  sendgrid: anyText,
} as const satisfies Record<string, EmailKeyFormat>

export type EmailProvider = keyof typeof EMAIL_KEY_FORMATS
// In the record's order; never empty (the schemas make a union of it).
export const EMAIL_PROVIDERS = Object.keys(EMAIL_KEY_FORMATS) as [EmailProvider, ...EmailProvider[]]

/** The key's problems for its provider, beyond the length every key keeps (API_KEY). */
export function apiKeyProblems(provider: EmailProvider, apiKey: string): FieldError[] {
  const format: EmailKeyFormat = EMAIL_KEY_FORMATS[provider]
  return format.fits(apiKey) ? [] : [{ path: '/apiKey', message: format.problem }]
}

export function parseSesKey(apiKey: string): { accessKeyId: string; secretAccessKey: string; region: string } | undefined {
  const parts = apiKey.split(':')
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined
  const [accessKeyId, secretAccessKey, region] = parts as [string, string, string]
  return /^[a-z]{2}(-[a-z]+)+-\d$/.test(region) ? { accessKeyId, secretAccessKey, region } : undefined
}

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

/** The provider's secret; its shape per provider is its record's (EMAIL_KEY_FORMATS). */
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
  | 'email_change'
  | 'email_change_notice'
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
