import type { Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { CANNOT_TEXT_MESSAGES } from '../../domain/messaging/can-text'
import { smsBodyErrors } from '../../domain/messaging/sms'
import { authorize } from '../auth/authorize'
import { findVisibleInteraction, findVisibleNeed } from '../needs/find-need'
import type { Repositories } from '../ports/repositories'
import { askedBy, type IdempotentCreates } from '../idempotency/idempotent-creates'
import type { TextSending } from './text-sending'

/**
 * docs/api/organization.md "SMS": checks the need, its constituent and the phone, then queues the text on the need
 * (`TextSending`: the opt-out, the limits, the interaction and the outbox, in one transaction). The dispatcher sends it.
 */
export class SendSms {
  constructor(
    private readonly repositories: Repositories,
    private readonly creates: IdempotentCreates,
    private readonly sending: TextSending,
  ) {}

  /** `idempotencyKey`: a retry with it answers the text the first request queued (docs/api/conventions.md "Retrying a create"). */
  async execute(actor: Actor, needId: string, body: string, idempotencyKey?: string): Promise<{ interactionId: string }> {
    authorize(actor, 'needs:send-sms')
    InvalidError.throwIfAny(smsBodyErrors(body), 'The message is not valid')
    return this.creates.once(
      askedBy(actor, 'send_sms', idempotencyKey, { needId, body }),
      (unit) => unit.run((r) => this.send(r, actor, needId, body, unit.recordId)),
      async (interactionId) => ({ interactionId: (await findVisibleInteraction(this.repositories, actor, interactionId)).id }),
    )
  }

  private async send(
    r: Repositories,
    actor: Actor,
    needId: string,
    body: string,
    interactionId: string,
  ): Promise<{ interactionId: string }> {
    const need = await findVisibleNeed(r, actor, needId)
    if (!need.constituentId) throw InvalidError.field('/', 'The need has no constituent to text')
    const constituent = await r.constituents.findById(actor.organizationId, need.constituentId)
    if (!constituent?.phone) throw InvalidError.field('/', CANNOT_TEXT_MESSAGES['no-phone'])
    await this.sending.queue(r, actor, { phone: constituent.phone, need }, body, interactionId, need.id)
    return { interactionId }
  }
}
