import { isPartnerRole, type Profile, type Role } from './roles'

/** The authenticated member a request acts for, read from the member's current record. */
export interface Actor {
  memberId: string
  organizationId: string
  role: Role
  profiles: readonly Profile[]
  /** The member's partner. It confines partner roles (see `scopeOf`); other roles see the whole organization. */
  partnerId?: string
}

/**
 * Whose records an actor sees: the whole organization's (roles that are not partner roles), its own
 * partner's (partner roles), or nobody's (a partner role whose member names no partner).
 */
export type ActorScope = { kind: 'organization' } | { kind: 'partner'; partnerId: string } | { kind: 'none' }

export function scopeOf(actor: Actor): ActorScope {
  if (!isPartnerRole(actor.role)) return { kind: 'organization' }
  return actor.partnerId ? { kind: 'partner', partnerId: actor.partnerId } : { kind: 'none' }
}

/** Whether the actor sees what belongs to `partnerId`. */
export function seesPartner(actor: Actor, partnerId: string): boolean {
  const scope = scopeOf(actor)
  return scope.kind === 'organization' || (scope.kind === 'partner' && scope.partnerId === partnerId)
}
