import type { FallbackEmailSender } from '../../application/ports/email'
import type { Logger } from '../../application/ports/logger'
import type { EmailMessage } from '../../domain/messaging/email'

/**
 * EMAIL_FALLBACK=log: an organization without email settings has its mail written to the log, whole,
 * so an operator can pass an invitation link on by hand. Set up a provider to keep links out of logs.
 */
export class LogEmailSender implements FallbackEmailSender {
  constructor(private readonly logger: Logger) {}

  async send(organizationId: string, message: EmailMessage) {
    this.logger.info('email written to the log (no email provider configured)', { organizationId, ...message })
    return {}
  }
}
