import type { FallbackEmailSender, OutboxMail } from '../../application/ports/email'
import type { Logger } from '../../application/ports/logger'
import type { EmailMessage } from '../../domain/messaging/email'

/**
 * EMAIL_FALLBACK=log: an organization without email settings has its mail sent nowhere, and the log says so.
 * The line names the outbox message, which mail it was and its length, nothing else: the address, the
 * subject and the text may name a person or carry a link's token, and erasure cannot reach a log
 * (docs/privacy.md). Nobody receives the mail; a provider is what delivers it.
 */
export class LogEmailSender implements FallbackEmailSender {
  constructor(private readonly logger: Logger) {}

  async send({ outboxId, organizationId }: OutboxMail, message: EmailMessage) {
    const fields = { organizationId, outboxId, template: message.template, length: message.text.length }
    this.logger.info('email not sent: no email provider configured (EMAIL_FALLBACK=log)', fields)
    return {}
  }
}
