import type { Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { smsBodyErrors } from '../../domain/messaging/sms'
import { authorize } from '../auth/authorize'
import type { IdGenerator } from '../ports/ids'
import type { UnitOfWork } from '../ports/unit-of-work'
import { findUnattachedText } from './messages'
import type { TextSending } from './text-sending'

/**
 * docs/api/organization.md "Messages": answers the number a text on no need came from, through the same checks,
 * limits and outbox as a text on a need. The reply stays on no need, with the number it went to, until the texts
 * of that number are put on a need.
 */
export class ReplyToMessage {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly sending: TextSending,
  ) {}

  async execute(actor: Actor, messageId: string, body: string): Promise<{ interactionId: string }> {
    authorize(actor, 'needs:send-sms')
    InvalidError.throwIfAny(smsBodyErrors(body), 'The message is not valid')
    const interactionId = this.ids.nextInTimeOrder()
    await this.unitOfWork.run(async (r) => {
      const text = await findUnattachedText(r, actor, messageId)
      if (!text.senderIdentifier) throw InvalidError.field('/', 'The number of this text was erased')
      await this.sending.queue(r, actor, { phone: text.senderIdentifier }, body, interactionId, text.id)
    })
    return { interactionId }
  }
}
