import type { Profile, Role } from '../auth/roles'

export interface Member {
  id: string
  organizationId: string
  email: string
  fullName?: string
  role: Role
  partnerId?: string
  profiles: Profile[]
  isConfirmed: boolean
  phone?: string
  /** argon2id hash; absent until the member sets a password. Never leaves the service. */
  passwordHash?: string
  createdAt: Date
}

/** Emails are compared and stored lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export const MIN_PASSWORD_LENGTH = 12

/** What a member looks like to callers: no password hash, and the partner's name beside its id. */
export type MemberView = Omit<Member, 'passwordHash' | 'organizationId' | 'createdAt'> & { partnerName?: string }
