import type { Actor } from '../auth/actor'
import { isAllowed } from '../auth/permissions'
import type { Interaction } from './interaction'
import type { Need } from './need'

/**
 * What a caller may see of a need (contract §6): the `customFields` of a confidential need only with
 * `needs:read-confidential`. The one place need responses are redacted.
 */
export function redactNeed(actor: Actor, need: Need): Need {
  if (need.isConfidential && !isAllowed(actor, 'needs:read-confidential')) return { ...need, customFields: {} }
  return need
}

/** The words exchanged about a confidential need are as confidential as its fields. */
export function redactInteraction(actor: Actor, need: Need, interaction: Interaction): Interaction {
  if (need.isConfidential && !isAllowed(actor, 'needs:read-confidential')) {
    const { content: _content, ...rest } = interaction
    return rest
  }
  return interaction
}
