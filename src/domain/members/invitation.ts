// docs/api.md "Members and invitations": a one-time token, stored as a digest, valid for 7 days
export const INVITATION_LIFETIME_MS = 7 * 24 * 3_600_000

export interface Invitation {
  id: string
  organizationId: string
  memberId: string
  tokenDigest: string
  createdAt: Date
  expiresAt: Date
  usedAt?: Date
  /** Absent: an invitation. A password reset is the same kind of one-time link, valid for an hour. */
  purpose?: 'password_reset'
}

export const PASSWORD_RESET_LIFETIME_MS = 3_600_000

/** The page a one-time link opens, on the service (PUBLIC_BASE_URL) or a staff app (`appUrl`). */
export function oneTimeLink(appUrl: string, page: 'accept-invite' | 'reset-password', token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/${page}?token=${encodeURIComponent(token)}`
}
