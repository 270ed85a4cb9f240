import { isPartnerRole, type Profile, type Role } from './roles'

/** The authenticated member a request acts for, read from the member's current record. */
export interface Actor {
  memberId: string
  organizationId: string
  role: Role
  profiles: readonly Profile[]
  /** Set for partner roles: the one partner whose needs the actor may see. */
  partnerId?: string
}

/** The partner an actor is confined to, or undefined when it sees the whole organization. */
export function partnerScopeOf(actor: Actor): string | undefined {
  return isPartnerRole(actor.role) ? (actor.partnerId ?? NO_PARTNER) : undefined
}

/** A partner role without a partner sees nothing: scope it to an id no record has. */
const NO_PARTNER = '00000000-0000-0000-0000-000000000000'
