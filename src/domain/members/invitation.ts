import { parseLinkBase } from '../shared/link-base'
import { originOf } from '../shared/origin'

// docs/api/access.md "Members and invitations": a one-time token, stored as a digest, valid for 7 days
export const INVITATION_LIFETIME_MS = 7 * 24 * 3_600_000

export interface Invitation {
  id: string
  organizationId: string
  memberId: string
  tokenDigest: string
  createdAt: Date
  expiresAt: Date
  usedAt?: Date
  /**
   * Absent: an invitation. A password reset (valid for an hour) and the confirmation of a new email address (a day)
   * are the same kind of one-time link.
   */
  purpose?: 'password_reset' | 'email_change'
  /** The address an `email_change` link confirms: the member's email once the link is followed. */
  email?: string
}

export const PASSWORD_RESET_LIFETIME_MS = 3_600_000
export const EMAIL_CHANGE_LIFETIME_MS = 24 * 3_600_000
/** A member's own email changes asked within an hour, each mailing two addresses: past it, 429 (a stolen session cannot flood mailboxes). */
export const EMAIL_CHANGES_PER_HOUR = 5

/**
 * The base URL of an invitation link, parsed (`parseLinkBase`), or what is wrong with it: an admin's `appUrl`
 * must be on the service's own origin (PUBLIC_BASE_URL's) or one the organization lists in `appOrigins`, so a
 * link that carries a token only ever leads to a site the organization chose (docs/api/access.md "Members and invitations").
 */
export function invitationLinkBase(
  appUrl: string,
  publicBaseUrl: string,
  appOrigins: readonly string[] = [],
): { url: URL } | { problem: string } {
  const parsed = parseLinkBase(appUrl)
  if ('problem' in parsed) return parsed
  const own = originOf(publicBaseUrl)
  if (parsed.url.origin === own || appOrigins.includes(parsed.url.origin)) return parsed
  return { problem: `must be on the service's own origin (${own}) or one listed in the organization's appOrigins` }
}

/**
 * The page a one-time link opens, on the service (PUBLIC_BASE_URL) or, for invitations, an allowed app: built
 * from the parsed base, its path kept (`https://app/join` gives `https://app/join/accept-invite?token=…`).
 */
export function oneTimeLink(base: URL, page: 'accept-invite' | 'reset-password' | 'confirm-email', token: string): string {
  const link = new URL(base.href)
  link.pathname = `${link.pathname.replace(/\/+$/, '')}/${page}`
  link.searchParams.set('token', token)
  return link.href
}
