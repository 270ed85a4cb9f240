import { readContactDetails } from '../../domain/constituents/contact'
import type { MailLanguage } from '../../domain/members/notifications'
import { cannotTextReason } from '../../domain/messaging/can-text'
import { secondsUntilFree, sendWindowStart, type SendLimits, type Tally } from '../../domain/messaging/send-limits'
import type { Interaction } from '../../domain/needs/interaction'
import type { Organization } from '../../domain/organizations/organization'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import { EVERY_ORGANIZATION, type SendScope } from '../ports/repositories/interaction-repository'
import type { NeedToName } from './numbering-need'

// docs/api/needs.md "Public intake": the person who asked is told its reference number and what happens next,
// when the organization chose to (`confirmRequests`). Only the reference number: the message may be read by
// whoever holds the phone or the mailbox.

/** Each message of an organization (`org`, its name) about the reference number `ref`. */
type Words = Record<'text' | 'subject' | 'mail', (org: string, ref: string) => string>

const WORDS: Record<MailLanguage, Words> = {
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

/** Confirmation mails one mailbox (`mailboxOf`) is sent per hour at most, as texts one number is (`smsPerRecipientPerHour`). */
export const CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR = 3

/**
 * Queues the confirmation in the transaction that records the need, recorded as an outbound interaction on
 * the need as staff texts are. A text when the person gave a phone that may be texted (not opted out with
 * STOP, under the texts-per-number limit) through a provider that reaches people, from the organization's
 * number; otherwise an email when it gave an address whose mailbox is under its own limit and the
 * organization has email settings; otherwise nothing. Each also stays under the deployment's cap on what
 * every organization together sends that number or mailbox (`recipientMessagesPerHour`), so forms of many
 * organizations cannot flood it either. The limits keep a form filled with someone else's number or address
 * from flooding it; the answer to the form is the same either way. The log provider and the log fallback
 * reach nobody, so no confirmation goes there: it would only record, on the need, a message the person never had.
 */
export class RequesterConfirmation {
  constructor(
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** Whether texts reach people (Twilio, from the organization's own number) or only the log (SMS_PROVIDER=log). */
    private readonly textsReachPeople: boolean,
    private readonly limits: SendLimits,
  ) {}

  async confirm(r: Repositories, organization: Organization, need: NeedToName, given: Record<string, unknown>, language: MailLanguage) {
    if (!organization.confirmRequests) return
    const { phone, email } = readContactDetails(given, '', organization.defaultCountry).details
    if (!phone && !email) return
    // Counted after locking the organization's row, as staff texts are: two requests at once count each other.
    await r.organizations.lockForUpdate(organization.id)
    const words = WORDS[language]
    const org = organization.name
    if (phone && (await this.mayText(r, organization, phone))) {
      const body = words.text(org, await need.referenceNumber)
      const from = organization.phoneNumber ?? 'system'
      const interactionId = await this.record(r, need, { channel: 'sms', senderIdentifier: from, content: body, deliveryStatus: 'queued' })
      await this.outbox.sms(r, organization.id, { from, to: phone, body, interactionId })
    } else if (email && (await this.mayMail(r, organization.id, email))) {
      const ref = await need.referenceNumber
      const text = words.mail(org, ref)
      await this.record(r, need, { channel: 'email', senderIdentifier: 'system', content: text })
      await this.outbox.email(r, organization.id, { template: 'requester_confirmation', to: email, subject: words.subject(org, ref), text })
    }
  }

  private async mayText(r: Repositories, organization: Organization, phone: string): Promise<boolean> {
    const since = sendWindowStart(this.clock.now())
    const [textsStoppedAt, withinLimits] = await Promise.all([
      r.smsOptOuts.optedOutAt(organization.id, phone),
      this.fits(organization.id, (scope) => r.interactions.tallyTextsTo(scope, phone, since), this.limits.smsPerRecipientPerHour),
    ])
    const facts = { phone, textsStoppedAt, textsReachPeople: this.textsReachPeople, organizationNumber: organization.phoneNumber }
    return cannotTextReason({ ...facts, withinLimits }) === undefined
  }

  private async mayMail(r: Repositories, organizationId: string, email: string): Promise<boolean> {
    if (!(await r.emailSettings.find(organizationId))) return false
    const since = sendWindowStart(this.clock.now())
    return this.fits(organizationId, (scope) => r.interactions.tallyMailsTo(scope, email, since), CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR)
  }

  /**
   * Under the organization's limit and under the deployment's cap, both counted at once. Other organizations'
   * rows are not locked: requests to several of them at the same moment may each pass the cap by one.
   */
  private async fits(organizationId: string, tally: (scope: SendScope) => Promise<Tally>, limit: number): Promise<boolean> {
    const [own, everyone] = await Promise.all([tally(organizationId), tally(EVERY_ORGANIZATION)])
    const now = this.clock.now()
    return secondsUntilFree(own, limit, now) === 0 && secondsUntilFree(everyone, this.limits.recipientMessagesPerHour, now) === 0
  }

  /** The message as an outbound interaction on the need: staff see what the person was told. */
  private async record(
    r: Repositories,
    need: NeedToName,
    message: Pick<Interaction, 'channel' | 'senderIdentifier' | 'content' | 'deliveryStatus'>,
  ): Promise<string> {
    const id = this.ids.nextInTimeOrder()
    await r.interactions.insert({
      id,
      organizationId: need.organizationId,
      partnerId: need.partnerId,
      needId: need.id,
      ...(need.constituentId ? { constituentId: need.constituentId } : {}),
      direction: 'outbound',
      ...message,
      createdAt: this.clock.now(),
    })
    return id
  }
}
