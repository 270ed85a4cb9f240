import { keptText, type UnsentMessage } from '../../domain/messaging/development-outbox'
import type { EmailMessage } from '../../domain/messaging/email'
import type { Clock } from '../ports/clock'
import type { OutboxMail } from '../ports/email'
import type { IdGenerator } from '../ports/ids'
import type { OutgoingSms, SmsSender } from '../ports/sms'
import type { UnitOfWork } from '../ports/unit-of-work'

/**
 * Keeps what would have been sent with no provider set (docs/api/organization.md "Development outbox"): a mail
 * of an organization without email settings, a text while SMS_PROVIDER=log. Its admins read it instead of the
 * log; a mail whose links would let them act as the recipient (a password reset) is kept without them.
 */
export class DevelopmentOutbox {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  keepMail({ organizationId }: OutboxMail, { template, to, subject, text }: EmailMessage): Promise<void> {
    return this.keep({ organizationId, channel: 'email', kind: template, recipient: to, subject, body: keptText(template, text) })
  }

  keepText(organizationId: string, { to, body }: OutgoingSms): Promise<void> {
    return this.keep({ organizationId, channel: 'sms', kind: 'sms', recipient: to, body })
  }

  private async keep(message: Omit<UnsentMessage, 'id' | 'createdAt'>): Promise<void> {
    const kept = { ...message, id: this.ids.nextInTimeOrder(), createdAt: this.clock.now() }
    await this.unitOfWork.run((r) => r.developmentOutbox.insert(kept))
  }
}

/** SMS_PROVIDER=log: each text goes to the log sender, then is kept for the organization's admins. */
export class KeptTexts implements SmsSender {
  constructor(
    private readonly sender: SmsSender,
    private readonly outbox: DevelopmentOutbox,
  ) {}

  async send(sms: OutgoingSms) {
    const sent = await this.sender.send(sms)
    await this.outbox.keepText(sms.organizationId, sms)
    return sent
  }

  findSent(query: Parameters<SmsSender['findSent']>[0]) {
    return this.sender.findSent(query)
  }
}
