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

/**
 * Whether the caller may read the name of the person on file a need is for, as need search finds needs by it
 * (`searchableKinds`): a reader of constituents; on a confidential need, a reader of confidential needs too.
 */
export function mayReadPersonName(actor: Actor, need: Pick<Need, 'isConfidential'>): boolean {
  return isAllowed(actor, 'constituents:read') && (!need.isConfidential || isAllowed(actor, 'needs:read-confidential'))
}

/** The member who sent a message, as the interactions answer it: the name a colleague knows them by. */
export interface SentBy {
  id: string
  fullName: string
}

/** An interaction as a caller sees it: without the content or the numbers it may not read, and who sent it by name. */
export type InteractionView = Omit<Interaction, 'senderIdentifier' | 'sentByMemberId' | 'recipient'> & {
  senderIdentifier?: string
  recipient?: string
  sentBy?: SentBy
}

/** The person's contact field an inbound message's sender is: the number a text came from, an email's address. */
const SENDER_FIELD: Partial<Record<InteractionChannel, ContactField>> = { sms: 'phone', email: 'email' }

/**
 * The words exchanged about a confidential need are as confidential as its fields. The sender of an
 * inbound message is the person's phone number (or email), as is the number a reply on no need went to: shown
 * to those who may read that field of the person, as on the constituent itself; others get neither.
 * `sentBy`: the sender of an outbound message, when a member sent it.
 */
export function redactInteraction(actor: Actor, need: Need, interaction: Interaction, sentBy?: SentBy): InteractionView {
  const { content, senderIdentifier, sentByMemberId: _memberId, recipient, ...rest } = interaction
  const senderField = interaction.direction === 'inbound' ? SENDER_FIELD[interaction.channel] : undefined
  const showsSender = senderField === undefined || mayReadContact(actor, senderField)
  const showsContent = !need.isConfidential || isAllowed(actor, 'needs:read-confidential')
  return {
    ...rest,
    ...(showsSender ? { senderIdentifier } : {}),
    ...(recipient !== undefined && mayReadContact(actor, 'phone') ? { recipient } : {}),
    ...(showsContent && content !== undefined ? { content } : {}),
    ...(sentBy ? { sentBy } : {}),
  }
}
