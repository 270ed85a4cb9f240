export const ROLES = ['org_admin', 'partner_admin', 'partner_agent', 'staff', 'volunteer'] as const
export type Role = (typeof ROLES)[number]

export const PROFILES = [
  'needs_processor',
  'intake_staff',
  'sms_communicator',
  'email_phone_communicator',
  'pii_reader',
  'duplicate_resolver',
] as const
export type Profile = (typeof PROFILES)[number]

/** Roles that work for one partner and see only its needs (docs/api/access.md "Permissions"). */
export const PARTNER_ROLES: readonly Role[] = ['partner_admin', 'partner_agent', 'volunteer']

export function isPartnerRole(role: Role): boolean {
  return PARTNER_ROLES.includes(role)
}
