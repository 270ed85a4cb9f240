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

export function passwordResetLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`
}

export function invitationLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/accept-invite?token=${encodeURIComponent(token)}`
}
