import type { Actor } from '../auth/actor'
import { isAllowed } from '../auth/permissions'
import type { ContactField } from '../constituents/contact'
import { duplicateWarningFor } from '../constituents/duplicate-hints'
import { mayReadContact, withoutHiddenContact } from '../constituents/redaction'
import type { Interaction, InteractionChannel } from './interaction'
import type { Need } from './need'

/**
 * What a caller may see of a need (docs/api/access.md "Permissions"), the one place need responses are redacted: the
 * `customFields` of a confidential need only with `needs:read-confidential`; the constituent's contact
 * keys inside `customFields` (phone, email, address, date of birth) only with the permission that reads
 * those fields on the constituent itself; the `duplicateWarning` as the caller may read it, or none.
 */
export function redactNeed(actor: Actor, need: Need): Need {
  const { duplicateWarning: stored, ...rest } = need
  const duplicateWarning = stored === undefined ? undefined : duplicateWarningFor(actor, stored)
  const customFields =
    need.isConfidential && !isAllowed(actor, 'needs:read-confidential') ? {} : withoutHiddenContact(actor, need.customFields)
  if (customFields === need.customFields && duplicateWarning === stored) return need
  return { ...rest, customFields, ...(duplicateWarning !== undefined ? { duplicateWarning } : {}) }
}

/** An interaction as a caller sees it: without the content or the sender it may not read. */
export type InteractionView = Omit<Interaction, 'senderIdentifier'> & { senderIdentifier?: string }

/** The person's contact field an inbound message's sender is: the number a text came from, an email's address. */
const SENDER_FIELD: Partial<Record<InteractionChannel, ContactField>> = { sms: 'phone', email: 'email' }

/**
 * The words exchanged about a confidential need are as confidential as its fields. The sender of an
 * inbound message is the person's phone number (or email): shown to those who may read that field of the
 * person, as on the constituent itself; others get no `senderIdentifier`.
 */
export function redactInteraction(actor: Actor, need: Need, interaction: Interaction): InteractionView {
  const { content, senderIdentifier, ...rest } = interaction
  const senderField = interaction.direction === 'inbound' ? SENDER_FIELD[interaction.channel] : undefined
  const showsSender = senderField === undefined || mayReadContact(actor, senderField)
  const showsContent = !need.isConfidential || isAllowed(actor, 'needs:read-confidential')
  return { ...rest, ...(showsSender ? { senderIdentifier } : {}), ...(showsContent && content !== undefined ? { content } : {}) }
}
