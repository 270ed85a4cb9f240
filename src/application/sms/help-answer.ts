import { HELP_ANSWER_INTERVAL_MS, helpAnswerOf } from '../../domain/messaging/sms'
import type { MailLanguage } from '../../domain/members/notifications'
import type { Interaction } from '../../domain/needs/interaction'
import type { Organization } from '../../domain/organizations/organization'
import type { Outbox } from '../messaging/outbox'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'

/**
 * docs/api/organization.md "SMS": HELP (English) and AYUDA (Spanish) are answered with the organization's name and how
 * to stop, to an opted-out number too (carriers require it), at most once a day per number and organization. The
 * turn is taken in the database in the transaction that records the message, so two instances, a restart or a
 * webhook sent again answer once; the answer goes through the outbox, recorded as an outbound text on the thread.
 */
export class HelpAnswer {
  constructor(
    private readonly outbox: Outbox,
    private readonly ids: IdGenerator,
  ) {}

  /** Answers `received` (the HELP as recorded), on the same thread: its need, or its person's unattached texts. */
  async send(r: Repositories, organization: Organization, received: Interaction, language: MailLanguage): Promise<void> {
    const { senderIdentifier: to, createdAt: at, needId, partnerId, constituentId } = received
    const since = new Date(at.getTime() - HELP_ANSWER_INTERVAL_MS)
    if (!(await r.smsOptOuts.claimHelpAnswer(organization.id, to, at, since))) return
    const from = organization.phoneNumber ?? 'system'
    const body = helpAnswerOf(language, organization.name)
    const interactionId = this.ids.nextInTimeOrder()
    await r.interactions.insert({
      id: interactionId,
      organizationId: organization.id,
      ...(needId ? { needId } : {}),
      ...(partnerId ? { partnerId } : {}),
      ...(constituentId ? { constituentId } : {}),
      channel: 'sms',
      direction: 'outbound',
      senderIdentifier: from,
      content: body,
      deliveryStatus: 'queued',
      createdAt: at,
    })
    await this.outbox.sms(r, organization.id, { from, to, body, interactionId })
  }
}
