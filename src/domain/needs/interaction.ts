import type { FieldError } from '../errors'
import { SMS_BODY, WEBHOOK_VALUE, type DeliveryStatus } from '../messaging/sms'
import { EMAIL, FieldChecks, FREE_TEXT, NAME, PHONE, type TextRule } from '../shared/fields'

export const INTERACTION_CHANNELS = ['sms', 'email', 'note'] as const
export type InteractionChannel = (typeof INTERACTION_CHANNELS)[number]

export const NOTE_CONTENT = { minLength: 1, ...FREE_TEXT } as const satisfies TextRule

/** A sender: a note's author (full name or email), the organization's number, or the number a text came from. */
export const SENDER_IDENTIFIER = {
  maxLength: Math.max(NAME.maxLength, EMAIL.maxLength, PHONE.maxLength, WEBHOOK_VALUE.maxLength),
} as const satisfies TextRule
/** The content: a note, a text staff sent, or a text that came in through the webhook. */
export const INTERACTION_CONTENT = {
  maxLength: Math.max(NOTE_CONTENT.maxLength, SMS_BODY.maxLength, WEBHOOK_VALUE.maxLength),
} as const satisfies TextRule

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
  /** Outbound SMS only (docs/api/organization.md "SMS"). */
  deliveryStatus?: DeliveryStatus
  /** The provider's id of the message (Twilio's MessageSid). */
  providerMessageId?: string
  /** The member who sent an outbound message; absent for the person's messages and the service's own. */
  sentByMemberId?: string
  /** Why a failed text was not delivered, in words (`deliveryErrorOf`). */
  deliveryError?: string
  /** The number an outbound text on no need went to (a reply to a message nobody has picked up). */
  recipient?: string
  createdAt: Date
}
