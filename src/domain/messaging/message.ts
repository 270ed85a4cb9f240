import type { Actor } from '../auth/actor'
import { mayReadContact } from '../constituents/redaction'
import type { Interaction } from '../needs/interaction'

/**
 * A text nobody has picked up (docs/api/organization.md "Messages"): an inbound text on no need. `from` is the
 * person's number, left out for those who may not read phone numbers, as on the person and the need.
 */
export interface MessageView {
  id: string
  body: string
  receivedAt: Date
  from?: string
}

export function messageView(actor: Actor, text: Interaction): MessageView {
  return {
    id: text.id,
    body: text.content ?? '',
    receivedAt: text.createdAt,
    ...(mayReadContact(actor, 'phone') ? { from: text.senderIdentifier } : {}),
  }
}

/** Whether an interaction is a text that came in and is on no need yet. */
export function isUnattachedText(interaction: Interaction): boolean {
  return interaction.channel === 'sms' && interaction.direction === 'inbound' && interaction.needId === undefined
}
