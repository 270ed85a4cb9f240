import type { Actor } from '../../domain/auth/actor'
import { InvalidError, TooManyRequestsError } from '../../domain/errors'
import { CANNOT_TEXT_MESSAGES, cannotTextReason } from '../../domain/messaging/can-text'
import { addTallies, secondsUntilFree, sendWindowStart, type SendLimits } from '../../domain/messaging/send-limits'
import type { Interaction } from '../../domain/needs/interaction'
import type { Need } from '../../domain/needs/need'
import type { AuditTrail } from '../audit/audit-trail'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'

/** Where a text staff send goes: a number, and the need (with its partner and person) it is on, if any. */
export interface TextTarget {
  phone: string
  need?: Pick<Need, 'id' | 'partnerId' | 'constituentId' | 'needsAttention'>
}

/**
 * docs/api/organization.md "SMS": what every text a member sends goes through, to a need's person or in reply
 * to a message on no need. Checks the opt-out, the organization's number and the send limits, then records the
 * `sms` interaction (who sent it) and puts the message in the outbox, in the caller's transaction.
 */
export class TextSending {
  constructor(
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    /** Whether the provider needs the organization's own number to send from (Twilio does, the log does not). */
    private readonly senderNumberRequired: boolean,
    private readonly audit: AuditTrail,
    private readonly limits: SendLimits,
  ) {}

  /** Queues the text as `interactionId`; the audit event names the need, or the message answered. */
  async queue(r: Repositories, actor: Actor, to: TextTarget, body: string, interactionId: string, answering: string): Promise<void> {
    const [textsStoppedAt, organization] = await Promise.all([
      r.smsOptOuts.optedOutAt(actor.organizationId, to.phone),
      r.organizations.findById(actor.organizationId),
    ])
    // The one rule of texting (`cannotTextReason`); the limits are refused below, as 429 with the wait. The log
    // records staff texts (SMS_PROVIDER=log): accepted, reaching nobody.
    const facts = { phone: to.phone, textsStoppedAt, textsReachPeople: this.senderNumberRequired, withinLimits: true }
    const reason = cannotTextReason({ ...facts, organizationNumber: organization?.phoneNumber }, true)
    if (reason) throw InvalidError.field('/', CANNOT_TEXT_MESSAGES[reason])
    await this.refuseOverLimits(r, actor, to.phone)
    const from = organization?.phoneNumber ?? 'system'
    const { need } = to
    const interaction: Interaction = {
      id: interactionId,
      organizationId: actor.organizationId,
      ...(need ? { needId: need.id, partnerId: need.partnerId } : { recipient: to.phone }),
      ...(need?.constituentId ? { constituentId: need.constituentId } : {}),
      channel: 'sms',
      direction: 'outbound',
      senderIdentifier: from,
      content: body,
      deliveryStatus: 'queued',
      ...(actor.memberId ? { sentByMemberId: actor.memberId } : {}),
      createdAt: this.clock.now(),
    }
    await r.interactions.insert(interaction)
    // Answered: the person's text no longer waits for anyone (docs/api/needs.md "Attention").
    if (need?.needsAttention) await r.needs.setAttention(actor.organizationId, need.id, false)
    await this.audit.record(r, actor, { action: 'send_sms', recordType: need ? 'need' : 'interaction', recordId: answering })
    await this.outbox.sms(r, actor.organizationId, { from, to: to.phone, body, interactionId })
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
    const [onNeeds, replies] = await Promise.all([
      r.interactions.tallyTextsTo(actor.organizationId, phone, since),
      r.interactions.tallyRepliesTo(actor.organizationId, phone, since),
    ])
    const recipientWait = secondsUntilFree(addTallies(onNeeds, replies), smsPerRecipientPerHour, now)
    if (recipientWait > 0)
      throw new TooManyRequestsError(
        recipientWait,
        `This number was sent ${smsPerRecipientPerHour} texts within the hour, the most it may be; try again later`,
      )
  }
}
