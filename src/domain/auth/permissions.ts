import type { Actor } from './actor'
import { PROFILES, ROLES, type Profile, type Role } from './roles'

/**
 * Who may do what: docs/api/access.md "Permissions" as data, the only place it is written. A rule allows the listed roles,
 * and any role holding one of the listed profiles. Scope (own partner, own organization) is applied
 * by the use cases on top of this table.
 */
export interface PermissionRule {
  roles: readonly Role[]
  profiles: readonly Profile[]
}

const EVERY_ROLE: readonly Role[] = ['org_admin', 'partner_admin', 'partner_agent', 'staff', 'volunteer']
const CASEWORKERS: readonly Role[] = ['org_admin', 'staff', 'partner_admin', 'partner_agent']

export const PERMISSIONS = {
  'needs:read': { roles: EVERY_ROLE, profiles: [] },
  'needs:add-note': { roles: EVERY_ROLE, profiles: [] },
  'partners:list': { roles: EVERY_ROLE, profiles: [] },
  'profile:read': { roles: EVERY_ROLE, profiles: [] },
  'profile:update': { roles: EVERY_ROLE, profiles: [] },
  'needs:create': { roles: ['org_admin', 'staff', 'partner_admin', 'partner_agent'], profiles: ['intake_staff'] },
  'needs:update': { roles: CASEWORKERS, profiles: ['needs_processor'] },
  'needs:send-sms': { roles: ['org_admin'], profiles: ['sms_communicator'] },
  'constituents:read-pii': { roles: ['org_admin', 'partner_admin'], profiles: ['pii_reader'] },
  'constituents:read-contact': {
    roles: ['org_admin', 'partner_admin'],
    profiles: ['pii_reader', 'email_phone_communicator'],
  },
  'needs:read-confidential': { roles: ['org_admin', 'partner_admin'], profiles: ['pii_reader'] },
  'constituents:read': { roles: CASEWORKERS, profiles: ['intake_staff'] },
  'constituents:update': { roles: CASEWORKERS, profiles: ['intake_staff'] },
  'constituents:merge': { roles: ['org_admin'], profiles: ['duplicate_resolver'] },
  // Irreversible, and a person's request the organization answers for: its admin only.
  'constituents:erase': { roles: ['org_admin'], profiles: [] },
  'household-matches:list': { roles: ['org_admin'], profiles: ['duplicate_resolver'] },
  'household-matches:resolve': { roles: ['org_admin'], profiles: ['duplicate_resolver'] },
  'partners:create': { roles: ['org_admin'], profiles: [] },
  'partners:update': { roles: ['org_admin', 'partner_admin'], profiles: [] },
  // The directory of services every member refers people to; a partner_admin manages its own partner's only (the use case's scope).
  'services:list': { roles: EVERY_ROLE, profiles: [] },
  'services:manage': { roles: ['org_admin', 'partner_admin'], profiles: [] },
  // Which vocabulary the organization's services are described in: the organization's decision.
  'taxonomy:import': { roles: ['org_admin'], profiles: [] },
  'members:list': { roles: ['org_admin', 'staff', 'partner_admin'], profiles: [] },
  'members:manage': { roles: ['org_admin', 'partner_admin'], profiles: [] },
  'organization:settings': { roles: ['org_admin'], profiles: [] },
  'webhooks:manage': { roles: ['org_admin'], profiles: [] },
  // Another organization's instance is trusted with this one's referrals: its admin's decision alone.
  'referral-partners:manage': { roles: ['org_admin'], profiles: [] },
  // Sending a need to a partner's instance, and moving one received: whoever may update the need (the use case's scope).
  'referrals:send': { roles: CASEWORKERS, profiles: ['needs_processor'] },
  'referrals:respond': { roles: CASEWORKERS, profiles: ['needs_processor'] },
  'referrals:read': { roles: EVERY_ROLE, profiles: [] },
  'audit:read': { roles: ['org_admin'], profiles: [] },
  // Partner roles read their own partner's figures only (the use case's scope).
  'reports:read': { roles: CASEWORKERS, profiles: [] },
  // A whole file of people's details at once: the organization's admin, or whoever may read every detail
  // anyway. Exports also need the read permission of what they export, and keep the lists' scope.
  'records:export': { roles: ['org_admin'], profiles: ['pii_reader'] },
  // A whole file of people brought in at once: the organization's decision, its admin's alone.
  'records:import': { roles: ['org_admin'], profiles: [] },
} as const satisfies Record<string, PermissionRule>

export type Permission = keyof typeof PERMISSIONS
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as [Permission, ...Permission[]]

export function isAllowed(actor: Pick<Actor, 'role' | 'profiles'>, permission: Permission): boolean {
  const rule: PermissionRule = PERMISSIONS[permission]
  return rule.roles.includes(actor.role) || rule.profiles.some((p) => actor.profiles.includes(p))
}

/** Every action the actor may take, as the table says (the own profile tells a client which controls to show). */
export function allowedPermissions(actor: Pick<Actor, 'role' | 'profiles'>): Permission[] {
  return PERMISSION_NAMES.filter((permission) => isAllowed(actor, permission))
}

/**
 * The table read the other way: what each role may do by itself, and what each profile adds to any role. Forms
 * that give a role or a profile explain it from this (the OpenAPI document carries it as `x-permissions`).
 */
export const GRANTS = {
  roles: Object.fromEntries(
    ROLES.map((role) => [role, PERMISSION_NAMES.filter((p) => (PERMISSIONS[p].roles as readonly Role[]).includes(role))]),
  ),
  profiles: Object.fromEntries(
    PROFILES.map((profile) => [profile, PERMISSION_NAMES.filter((p) => (PERMISSIONS[p].profiles as readonly Profile[]).includes(profile))]),
  ),
} as { roles: Record<Role, Permission[]>; profiles: Record<Profile, Permission[]> }
