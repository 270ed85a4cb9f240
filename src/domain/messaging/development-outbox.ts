import type { EmailTemplate } from './email'

// docs/api/organization.md "Development outbox"

/** How long what would have been sent is kept: a week, enough to try the service out, then purged. */
export const DEVELOPMENT_OUTBOX_DAYS = 7

/**
 * A message the service would have sent, had a provider been set (no email provider, or SMS_PROVIDER=log):
 * kept for the organization's admins to read, erased with the person it was to.
 */
export interface UnsentMessage {
  id: string
  organizationId: string
  channel: 'email' | 'sms'
  /** A mail's template (`invitation`, `password_reset`...); `sms` for a text. */
  kind: EmailTemplate | 'sms'
  /** The address or phone number it was to. */
  recipient: string
  /** A mail's subject; a text has none. */
  subject?: string
  body: string
  createdAt: Date
}

/**
 * Whether an admin may read a mail's links: a link of a password reset or of an email change (or of any mail not
 * named here) would let its reader act as the member it was to, so it is kept without them. `satisfies` makes a new template choose.
 */
const LINKS_SHOWN = {
  invitation: true,
  password_reset: false,
  email_change: false,
  email_change_notice: false,
  need_notification: true,
  daily_digest: true,
  requester_confirmation: true,
  settings_test: true,
} as const satisfies Record<EmailTemplate, boolean>

/** What stands for a link withheld. */
export const LINK_WITHHELD = '[link withheld]'

/** A mail's text as kept: its links withheld when they would let an admin act as the recipient. */
export function keptText(template: EmailTemplate, text: string): string {
  return LINKS_SHOWN[template] ? text : text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, LINK_WITHHELD)
}
