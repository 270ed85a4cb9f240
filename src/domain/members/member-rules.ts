import type { Actor } from '../auth/actor'
import { isPartnerRole, type Role } from '../auth/roles'
import { ForbiddenError, InvalidError } from '../errors'

// contract §6, §7
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
