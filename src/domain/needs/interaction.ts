// interface §2.5
export const INTERACTION_CHANNELS = ['sms', 'email', 'note'] as const
export type InteractionChannel = (typeof INTERACTION_CHANNELS)[number]

export interface Interaction {
  id: string
  organizationId: string
  partnerId?: string
  needId?: string
  channel: InteractionChannel
  senderIdentifier: string
  content?: string
  createdAt: Date
}
