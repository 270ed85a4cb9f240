import type { Actor } from '../auth/actor'
import { isPartnerRole, type Profile, type Role } from '../auth/roles'
import { ForbiddenError, InvalidError } from '../errors'

// docs/api/access.md "Permissions" and "Members and invitations"
/** The roles a partner_admin may give, within its own partner. */
export const ROLES_A_PARTNER_ADMIN_MANAGES: readonly Role[] = ['partner_agent', 'volunteer']

/** Partner roles work for one partner and must name it; the others see the whole organization and must not. */
export function assertRoleFitsPartner(role: Role, partnerId: string | undefined): void {
  if (isPartnerRole(role) && !partnerId) throw InvalidError.field('/partnerId', `is required for the role ${role}`)
  if (!isPartnerRole(role) && partnerId) throw InvalidError.field('/partnerId', `applies to partner roles only, not to ${role}`)
}

/** An org_admin manages everyone; a partner_admin only agents and volunteers of its own partner. */
export function assertMayManage(actor: Actor, role: Role, partnerId: string | undefined): void {
  if (actor.role === 'org_admin') return
  if (actor.role === 'partner_admin' && ROLES_A_PARTNER_ADMIN_MANAGES.includes(role) && partnerId === actor.partnerId) return
  throw new ForbiddenError('Partner admins manage the agents and volunteers of their own partner only')
}

/**
 * A member grants only the profiles it holds itself; an org_admin grants any. Profiles the member already
 * has may stay or go: only those `after` adds to `before` are grants. Otherwise a partner_admin could hand
 * its agents `duplicate_resolver` or `pii_reader` and reach what it cannot reach itself.
 */
export function assertMayGrantProfiles(actor: Actor, before: readonly Profile[], after: readonly Profile[]): void {
  if (actor.role === 'org_admin') return
  const notHeld = after.filter((p) => !before.includes(p) && !actor.profiles.includes(p))
  if (notHeld.length > 0) throw new ForbiddenError(`You may grant only profiles you hold yourself, not ${[...new Set(notHeld)].join(', ')}`)
}
