import { t } from 'elysia'
import type { MessageView } from '../../domain/messaging/message'
import { SMS_BODY } from '../../domain/messaging/sms'
import { INTERACTION_CONTENT, SENDER_IDENTIFIER } from '../../domain/needs/interaction'
import { PUBLIC_DESCRIPTION } from '../../domain/needs/need'
import { Body, DateTime, Named, PageQuery, Text, Uuid } from './common.schemas'

export const MessageSchema = Named(
  'Message',
  t.Object(
    {
      id: Uuid,
      body: Text(INTERACTION_CONTENT, { description: 'What the person wrote' }),
      receivedAt: DateTime,
      from: t.Optional(
        Text(SENDER_IDENTIFIER, {
          description: "The number it came from; only to those who may read people's phone numbers (left out otherwise)",
        }),
      ),
    },
    { description: 'A text that came in and is on no need yet' },
  ),
)

export const ListMessagesQuery = t.Object(
  {
    unattached: t.Optional(t.Boolean({ description: 'true: the texts on no need, the one list there is (left out, the same)' })),
    ...PageQuery,
  },
  { additionalProperties: false },
)

export const AttachMessageBody = Named('AttachMessage', Body({ needId: { ...Uuid, description: 'The need the texts go on' } }))

export const StartNeedBody = Named(
  'StartNeedFromMessage',
  Body({
    partnerId: { ...Uuid, description: 'The partner the new need is for' },
    description: t.Optional(t.String({ ...PUBLIC_DESCRIPTION, description: 'What the need is about; kept as customFields.description' })),
  }),
)

export const ReplyBody = Named('MessageReply', Body({ body: t.String({ ...SMS_BODY, description: 'The message text' }) }))

/** A message as JSON. */
export function messageJson({ receivedAt, ...message }: MessageView) {
  return { ...message, receivedAt: receivedAt.toISOString() }
}
