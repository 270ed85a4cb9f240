import type { Actor } from '../auth/actor'
import { isAllowed } from '../auth/permissions'
import { withoutHiddenContact } from '../constituents/redaction'
import type { Interaction } from './interaction'
import type { Need } from './need'

/**
 * What a caller may see of a need (docs/api.md "Permissions"), the one place need responses are redacted: the
 * `customFields` of a confidential need only with `needs:read-confidential`; the constituent's contact
 * keys inside `customFields` (phone, email, address, date of birth) only with the permission that reads
 * those fields on the constituent itself.
 */
export function redactNeed(actor: Actor, need: Need): Need {
  if (need.isConfidential && !isAllowed(actor, 'needs:read-confidential')) return { ...need, customFields: {} }
  const customFields = withoutHiddenContact(actor, need.customFields)
  return customFields === need.customFields ? need : { ...need, customFields }
}

/** The words exchanged about a confidential need are as confidential as its fields. */
export function redactInteraction(actor: Actor, need: Need, interaction: Interaction): Interaction {
  if (need.isConfidential && !isAllowed(actor, 'needs:read-confidential')) {
    const { content: _content, ...rest } = interaction
    return rest
  }
  return interaction
}
