import type { DeliveryStatus } from '../messaging/sms'

export const INTERACTION_CHANNELS = ['sms', 'email', 'note'] as const
export type InteractionChannel = (typeof INTERACTION_CHANNELS)[number]

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
