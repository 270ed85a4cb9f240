import type { FieldError } from '../errors'

// docs/api.md
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

export interface EmailMessage {
  to: string
  subject: string
  text: string
}

/** The key's shape per provider: an SMTP URL for smtp, ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION for ses. */
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

export function lastFour(secret: string): string {
  return secret.slice(-4)
}
