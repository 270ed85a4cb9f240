import { PROFILES, ROLES, type Profile, type Role } from '../auth/roles'
import type { FieldError } from '../errors'
import { MAIL_LANGUAGES, notificationErrors, type MailLanguage, type NotificationPreferences } from './notifications'
import { EMAIL, EMAIL_MEANING, FieldChecks, HTTP_URL, NAME, type ListRule, type TextRule } from '../shared/fields'
import { phoneProblem } from '../shared/phone'

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
  /** The member's own choices of mail (docs/api/organization.md "Notifications"); what it left out follows its role. */
  notifications?: Partial<NotificationPreferences>
  /** The language of the member's mails; English when not chosen. */
  language?: MailLanguage
  /** Set while the member is deactivated (docs/api/access.md "Members and invitations"): no login, no session. */
  deactivatedAt?: Date
  /** When a session of the member last began: a login, an accepted invitation or a password reset. */
  lastLoginAt?: Date
  createdAt: Date
}

/** Whether the member may log in and act: it chose a password and is not deactivated. */
export function maySignIn(member: Member): boolean {
  return member.isConfirmed && member.deactivatedAt === undefined
}

/** Emails are compared and stored lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/**
 * The address the first start gives its admin when the operator names none (docs/api/access.md "Changing an email"):
 * example.org is reserved for examples, so no mail reaches it and nobody could confirm a change away from it.
 */
export const FIRST_START_ADMIN_EMAIL = 'admin@example.org'

export const MIN_PASSWORD_LENGTH = 12
/** The upper bound keeps argon2 from hashing megabytes. */
export const PASSWORD = { minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 } as const satisfies TextRule

export function passwordErrors(password: string): FieldError[] {
  return new FieldChecks().text('/password', password, PASSWORD).errors
}

/** At most one of each (a list given to a use case may repeat one: it is kept once). */
export const PROFILE_LIST = { maxItems: PROFILES.length, uniqueItems: true } as const satisfies ListRule

/** What an inviter or an admin sets; `phone: null` clears the phone. */
export interface MemberFields {
  email: string
  role: Role
  fullName?: string
  partnerId?: string
  phone?: string | null
  profiles?: Profile[]
  /** Where an invitation link points. */
  appUrl?: string
  /** On a change only: false deactivates the member, true restores its access. */
  active?: boolean
}

const knownProfiles = (profiles: unknown) =>
  Array.isArray(profiles) && profiles.every((p) => PROFILES.includes(p)) ? undefined : `must list profiles among: ${PROFILES.join(', ')}`

/**
 * The problems of an invitation (`email` and `role` required) or of a change to a member (all optional; its new
 * `email` is the email change's to check);
 * a phone is read in the organization's `country` (docs/api/needs.md "Phone numbers").
 */
export function memberFieldErrors(input: Partial<MemberFields>, change: 'invite' | 'update', country: string): FieldError[] {
  const checks = new FieldChecks()
  if (change === 'invite') checks.text('/email', input.email, EMAIL, { meaning: EMAIL_MEANING, trim: true })
  return (
    checks
      .oneOf('/role', input.role, ROLES, change === 'invite' ? 'required' : 'optional')
      // A change keeps the name trimmed.
      .text('/fullName', input.fullName, NAME, { presence: 'optional', trim: change === 'update' })
      .check('/phone', input.phone, change === 'invite' ? 'optional' : 'clearable', (phone) => phoneProblem(phone, country))
      .check('/profiles', input.profiles, 'optional', knownProfiles)
      .boolean('/active', change === 'update' ? input.active : undefined, 'optional')
      .text('/appUrl', input.appUrl, HTTP_URL, { presence: 'optional', meaning: 'an http(s) URL' }).errors
  )
}

/** The problems of a change to a member's own profile: a name that is not blank, a phone or `null`; both optional. */
export function profileFieldErrors(input: ProfileFields, country: string): FieldError[] {
  const checks = new FieldChecks()
    .text('/fullName', input.fullName, NAME, { trim: true, presence: 'optional' })
    .check('/phone', input.phone, 'clearable', (phone) => phoneProblem(phone, country))
    .oneOf('/language', input.language, MAIL_LANGUAGES, 'optional')
  return notificationErrors(checks, input.notifications).errors
}

/** What a member may change of its own profile; `phone: null` clears the phone. */
export interface ProfileFields {
  fullName?: string
  phone?: string | null
  language?: MailLanguage
  notifications?: Partial<NotificationPreferences>
}

/** What a member looks like to callers: no password hash, and the partner's name beside its id. */
export type MemberView = Omit<Member, 'passwordHash' | 'organizationId' | 'createdAt' | 'deactivatedAt' | 'notifications' | 'language'> & {
  partnerName?: string
  active: boolean
}
