import type { Actor } from '../../domain/auth/actor'
import { isAllowed, type Permission } from '../../domain/auth/permissions'
import { ForbiddenError } from '../../domain/errors'

/** Throws Forbidden unless the permission table allows the actor this action. */
export function authorize(actor: Actor, permission: Permission): void {
  if (!isAllowed(actor, permission)) throw new ForbiddenError()
}
