import { readContactDetails } from '../../domain/constituents/contact'
import type { MailLanguage } from '../../domain/members/notifications'
import { secondsUntilFree, sendWindowStart, type SendLimits } from '../../domain/messaging/send-limits'
import type { Need } from '../../domain/needs/need'
import type { Organization } from '../../domain/organizations/organization'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'

// docs/api.md "Public intake": the person who asked is told its reference number and what happens next,
// when the organization chose to (`confirmRequests`). Only the reference number: the message may be read by
// whoever holds the phone or the mailbox.

const WORDS: Record<
  MailLanguage,
  { text: (org: string, ref: string) => string; subject: (org: string, ref: string) => string; mail: (org: string, ref: string) => string }
> = {
  en: {
    text: (org, ref) =>
      `${org}: we received your request for help. Your reference number is ${ref}. Our staff read every request and will contact you. Reply STOP to receive no more texts.`,
    subject: (org, ref) => `Your request ${ref} to ${org}`,
    mail: (org, ref) =>
      [
        `${org} received your request for help.`,
        '',
        `Your reference number is ${ref}. Keep it, and give it when you contact us.`,
        '',
        'Our staff read every request and will contact you.',
      ].join('\n'),
  },
  es: {
    text: (org, ref) =>
      `${org}: recibimos su solicitud de ayuda. Su número de referencia es ${ref}. Nuestro personal lee cada solicitud y se comunicará con usted. Responda STOP para no recibir más mensajes.`,
    subject: (org, ref) => `Su solicitud ${ref} a ${org}`,
    mail: (org, ref) =>
      [
        `${org} recibió su solicitud de ayuda.`,
        '',
        `Su número de referencia es ${ref}. Guárdelo y menciónelo cuando se comunique con nosotros.`,
        '',
        'Nuestro personal lee cada solicitud y se comunicará con usted.',
      ].join('\n'),
  },
}

/**
 * Queues the confirmation in the transaction that records the need. A text when the person gave a phone
 * that may be texted (not opted out with STOP, under the texts-per-number limit, and the organization has a
 * number where the provider needs one), recorded as an outbound `sms` interaction on the need as staff
 * texts are; otherwise an email when it gave one; otherwise nothing.
 */
export class RequesterConfirmation {
  constructor(
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** Whether the provider needs the organization's own number to send from (Twilio does, the log does not). */
    private readonly senderNumberRequired: boolean,
    private readonly limits: SendLimits,
  ) {}

  async confirm(r: Repositories, organization: Organization, need: Need, given: Record<string, unknown>, language: MailLanguage) {
    if (!organization.confirmRequests) return
    const { phone, email } = readContactDetails(given, '').details
    const words = WORDS[language]
    if (phone && (await this.mayText(r, organization, phone))) {
      const body = words.text(organization.name, need.referenceNumber)
      const from = organization.phoneNumber ?? 'system'
      const interactionId = this.ids.nextInTimeOrder()
      await r.interactions.insert({
        id: interactionId,
        organizationId: organization.id,
        partnerId: need.partnerId,
        needId: need.id,
        ...(need.constituentId ? { constituentId: need.constituentId } : {}),
        channel: 'sms',
        direction: 'outbound',
        senderIdentifier: from,
        content: body,
        deliveryStatus: 'queued',
        createdAt: this.clock.now(),
      })
      await this.outbox.sms(r, organization.id, { from, to: phone, body, interactionId })
    } else if (email) {
      const ref = need.referenceNumber
      await this.outbox.email(r, organization.id, {
        to: email,
        subject: words.subject(organization.name, ref),
        text: words.mail(organization.name, ref),
      })
    }
  }

  /**
   * The number did not opt out, and was not sent its hour's share of texts (so a form filled with someone
   * else's number cannot flood it). Counted after locking the organization's row, as staff texts are.
   */
  private async mayText(r: Repositories, organization: Organization, phone: string): Promise<boolean> {
    if (this.senderNumberRequired && !organization.phoneNumber) return false
    if (await r.smsOptOuts.isOptedOut(organization.id, phone)) return false
    await r.organizations.lockForUpdate(organization.id)
    const now = this.clock.now()
    const sent = await r.interactions.tallyTextsTo(organization.id, phone, sendWindowStart(now))
    return secondsUntilFree(sent, this.limits.smsPerRecipientPerHour, now) === 0
  }
}
