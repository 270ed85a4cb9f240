import { seesPartner, type Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import { looksLikeReferenceNumber, normalizeReferenceNumber, type Need } from '../../domain/needs/need'
import type { Repositories } from '../ports/repositories'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The need the actor may see by id or reference number, else Need not found: another
 * organization's need and, for partner roles, another partner's need are indistinguishable from none.
 */
export async function findVisibleNeed(r: Repositories, actor: Actor, idOrReference: string): Promise<Need> {
  const reference = normalizeReferenceNumber(idOrReference)
  // Text of another form names no need: it is not looked up (nor handed to the database as it is).
  const need = UUID.test(idOrReference)
    ? await r.needs.findById(actor.organizationId, idOrReference.toLowerCase())
    : looksLikeReferenceNumber(reference)
      ? await r.needs.findByReferenceNumber(actor.organizationId, reference)
      : undefined
  if (!need || !seesPartner(actor, need.partnerId)) throw new NotFoundError('Need')
  return need
}
