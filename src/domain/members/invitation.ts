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
  /** Absent: an invitation. A password reset is the same kind of one-time link, valid for an hour. */
  purpose?: 'password_reset'
}

export const PASSWORD_RESET_LIFETIME_MS = 3_600_000

/**
 * What is wrong with the base URL an admin chose for an invitation link (`appUrl`), or undefined: its origin
 * must be the service's own (PUBLIC_BASE_URL's) or one the organization lists in `appOrigins`, so a link
 * that carries a token only ever leads to a site the organization chose (docs/api/access.md "Members and invitations").
 */
export function linkBaseProblem(appUrl: string, publicBaseUrl: string, appOrigins: readonly string[] = []): string | undefined {
  const origin = originOf(appUrl)
  const own = originOf(publicBaseUrl)
  if (origin !== undefined && (origin === own || appOrigins.includes(origin))) return undefined
  return `must be on the service's own origin (${own}) or one listed in the organization's appOrigins`
}

/** The page a one-time link opens, on the service (PUBLIC_BASE_URL) or, for invitations, an allowed app (`appUrl`). */
export function oneTimeLink(appUrl: string, page: 'accept-invite' | 'reset-password', token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/${page}?token=${encodeURIComponent(token)}`
}
