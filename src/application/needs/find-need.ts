import { seesPartner, type Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import { looksLikeReferenceNumber, normalizeReferenceNumber, type Need } from '../../domain/needs/need'
import { redactInteraction, type InteractionView } from '../../domain/needs/redaction'
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

/** A note or text on a need the actor may see, as it may see it; else Need not found, as for the need itself. */
export async function findVisibleInteraction(r: Repositories, actor: Actor, id: string): Promise<InteractionView> {
  const interaction = await r.interactions.findById(actor.organizationId, id)
  if (!interaction?.needId) throw new NotFoundError('Need')
  return redactInteraction(actor, await findVisibleNeed(r, actor, interaction.needId), interaction)
}
