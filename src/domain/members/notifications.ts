import type { Role } from '../auth/roles'
import type { FieldChecks } from '../shared/fields'

// docs/api/organization.md "Notifications": what each member is mailed about, by its own choice.

export const NOTIFICATION_KINDS = ['newNeeds', 'assignedToMe', 'dailyDigest'] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]
export type NotificationPreferences = Record<NotificationKind, boolean>

/** The languages a member's mails are written in. */
export const MAIL_LANGUAGES = ['en', 'es'] as const
export type MailLanguage = (typeof MAIL_LANGUAGES)[number]

/**
 * What a member gets until it chooses: new needs for those who run an organization or a partner (they
 * answer for every request arriving), its own assignments and the digest for everyone.
 */
export function defaultNotifications(role: Role): NotificationPreferences {
  return { newNeeds: role === 'org_admin' || role === 'partner_admin', assignedToMe: true, dailyDigest: true }
}

/** The member's preferences: its choices over its role's defaults. */
export function notificationsOf(member: { role: Role; notifications?: Partial<NotificationPreferences> }): NotificationPreferences {
  return { ...defaultNotifications(member.role), ...member.notifications }
}

/** The rules of a change of preferences: each a boolean, no other key. */
export function notificationErrors(checks: FieldChecks, value: unknown): FieldChecks {
  if (value === undefined) return checks
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return checks.check('/notifications', value, 'required', () => 'must be an object')
  for (const [key, choice] of Object.entries(value)) {
    if ((NOTIFICATION_KINDS as readonly string[]).includes(key)) checks.boolean(`/notifications/${key}`, choice, 'required')
    else checks.check(`/notifications/${key}`, choice, 'required', () => 'is not a field of this request')
  }
  return checks
}
