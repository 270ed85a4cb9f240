import type { FieldError } from '../errors'
import type { DeliveryStatus } from '../messaging/sms'
import { FieldChecks, FREE_TEXT, type TextRule } from '../shared/fields'

export const INTERACTION_CHANNELS = ['sms', 'email', 'note'] as const
export type InteractionChannel = (typeof INTERACTION_CHANNELS)[number]

export const NOTE_CONTENT = { minLength: 1, ...FREE_TEXT } as const satisfies TextRule

export function noteErrors(content: string): FieldError[] {
  return new FieldChecks().text('/content', content, NOTE_CONTENT).errors
}

export interface Interaction {
  id: string
  organizationId: string
  partnerId?: string
  needId?: string
  /** The person the message came from or went to; inbound texts without an open need keep only this. */
  constituentId?: string
  channel: InteractionChannel
  /** Messages only: whether it came in or went out. */
  direction?: 'inbound' | 'outbound'
  senderIdentifier: string
  content?: string
  /** Outbound SMS only (docs/api.md "SMS"). */
  deliveryStatus?: DeliveryStatus
  /** The provider's id of the message (Twilio's MessageSid). */
  providerMessageId?: string
  createdAt: Date
}
