import type { Actor } from '../../domain/auth/actor'
import { InvalidError, TooManyRequestsError } from '../../domain/errors'
import { secondsUntilFree, sendWindowStart, type SendLimits } from '../../domain/messaging/send-limits'
import { smsBodyErrors } from '../../domain/messaging/sms'
import { CANNOT_TEXT_MESSAGES, cannotTextReason } from '../../domain/messaging/can-text'
import type { Interaction } from '../../domain/needs/interaction'
import { authorize } from '../auth/authorize'
import type { Outbox } from '../messaging/outbox'
import { findVisibleInteraction, findVisibleNeed } from '../needs/find-need'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { askedBy, type IdempotentCreates } from '../idempotency/idempotent-creates'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * docs/api/organization.md "SMS": checks the need, then whether its constituent may be texted (`cannotTextReason`) and the member's limit, then
 * records the `sms` interaction and puts the message in the outbox in one transaction. The dispatcher sends it.
 */
export class SendSms {
  constructor(
    private readonly repositories: Repositories,
    private readonly creates: IdempotentCreates,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    /** Whether the provider needs the organization's own number to send from (Twilio does, the log does not). */
    private readonly senderNumberRequired: boolean,
    private readonly audit: AuditTrail,
    private readonly limits: SendLimits,
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
    const phone = constituent?.phone
    const [textsStoppedAt, organization] = phone
      ? await Promise.all([r.smsOptOuts.optedOutAt(actor.organizationId, phone), r.organizations.findById(actor.organizationId)])
      : []
    const { memberWait, recipientWait } = phone ? await this.waits(r, actor, phone) : { memberWait: 0, recipientWait: 0 }
    // The log records staff texts (SMS_PROVIDER=log): accepted, reaching nobody.
    const reason = cannotTextReason(
      {
        phone,
        textsStoppedAt,
        textsReachPeople: this.senderNumberRequired,
        organizationNumber: organization?.phoneNumber,
        withinLimits: recipientWait === 0,
      },
      true,
    )
    if (reason && reason !== 'limit-reached') throw InvalidError.field('/', CANNOT_TEXT_MESSAGES[reason])
    if (memberWait > 0)
      throw new TooManyRequestsError(
        memberWait,
        `You sent ${this.limits.smsPerMemberPerHour} texts within the hour, the most one member may; try again later`,
      )
    if (reason)
      throw new TooManyRequestsError(
        recipientWait,
        `This number was sent ${this.limits.smsPerRecipientPerHour} texts within the hour, the most it may be; try again later`,
      )
    if (!constituent || !phone) throw InvalidError.field('/', CANNOT_TEXT_MESSAGES['no-phone'])
    const interaction: Interaction = {
      id: interactionId,
      organizationId: actor.organizationId,
      partnerId: need.partnerId,
      needId: need.id,
      constituentId: constituent.id,
      channel: 'sms',
      direction: 'outbound',
      senderIdentifier: organization?.phoneNumber ?? 'system',
      content: body,
      deliveryStatus: 'queued',
      createdAt: this.clock.now(),
    }
    await r.interactions.insert(interaction)
    await this.audit.record(r, actor, { action: 'send_sms', recordType: 'need', recordId: need.id })
    await this.outbox.sms(r, actor.organizationId, {
      from: organization?.phoneNumber ?? 'system',
      to: phone,
      body,
      interactionId: interaction.id,
    })
    return { interactionId: interaction.id }
  }

  /**
   * Seconds until the member, and the number, may be sent one more text (0: now), over the last hour. Counted after
   * locking the organization's row, so two sends at once, on any instance, cannot both take the last place.
   */
  private async waits(r: Repositories, actor: Actor, phone: string): Promise<{ memberWait: number; recipientWait: number }> {
    const now = this.clock.now()
    const since = sendWindowStart(now)
    await r.organizations.lockForUpdate(actor.organizationId)
    const [byMember, toNumber] = await Promise.all([
      r.auditEvents.tally(actor.organizationId, { memberId: actor.memberId, action: 'send_sms', since }),
      r.interactions.tallyTextsTo(actor.organizationId, phone, since),
    ])
    return {
      memberWait: secondsUntilFree(byMember, this.limits.smsPerMemberPerHour, now),
      recipientWait: secondsUntilFree(toNumber, this.limits.smsPerRecipientPerHour, now),
    }
  }
}
