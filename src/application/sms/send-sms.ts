import type { Actor } from '../../domain/auth/actor'
import { InvalidError, TooManyRequestsError } from '../../domain/errors'
import { secondsUntilFree, sendWindowStart, type SendLimits } from '../../domain/messaging/send-limits'
import { smsBodyErrors } from '../../domain/messaging/sms'
import type { Interaction } from '../../domain/needs/interaction'
import { authorize } from '../auth/authorize'
import type { Outbox } from '../messaging/outbox'
import { findVisibleInteraction, findVisibleNeed } from '../needs/find-need'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { askedBy, type IdempotentCreates } from '../idempotency/idempotent-creates'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * docs/api/organization.md "SMS": checks the need, its constituent, the phone, the opt-out and the send limits, then
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
    if (!constituent?.phone) throw InvalidError.field('/', 'The constituent has no phone number')
    if (await r.smsOptOuts.isOptedOut(actor.organizationId, constituent.phone)) {
      throw InvalidError.field('/', 'The constituent opted out of text messages (replied STOP); they can opt back in by texting START')
    }
    const organization = await r.organizations.findById(actor.organizationId)
    if (this.senderNumberRequired && !organization?.phoneNumber) {
      throw InvalidError.field('/', 'The organization has no SMS number yet: an operator sets it with `intake org set-phone-number`')
    }
    await this.refuseOverLimits(r, actor, constituent.phone)
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
      to: constituent.phone,
      body,
      interactionId: interaction.id,
    })
    return { interactionId: interaction.id }
  }

  /**
   * Texts per member and per number over the last hour. Counted after locking the organization's row, so
   * two sends at once, on any instance, cannot both take the last place.
   */
  private async refuseOverLimits(r: Repositories, actor: Actor, phone: string): Promise<void> {
    const now = this.clock.now()
    const since = sendWindowStart(now)
    await r.organizations.lockForUpdate(actor.organizationId)
    const { smsPerMemberPerHour, smsPerRecipientPerHour } = this.limits
    const sent = await r.auditEvents.tally(actor.organizationId, { memberId: actor.memberId, action: 'send_sms', since })
    const memberWait = secondsUntilFree(sent, smsPerMemberPerHour, now)
    if (memberWait > 0)
      throw new TooManyRequestsError(
        memberWait,
        `You sent ${smsPerMemberPerHour} texts within the hour, the most one member may; try again later`,
      )
    const recipientWait = secondsUntilFree(
      await r.interactions.tallyTextsTo(actor.organizationId, phone, since),
      smsPerRecipientPerHour,
      now,
    )
    if (recipientWait > 0)
      throw new TooManyRequestsError(
        recipientWait,
        `This number was sent ${smsPerRecipientPerHour} texts within the hour, the most it may be; try again later`,
      )
  }
}
