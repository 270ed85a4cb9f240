import type { Logger } from '../../application/ports/logger'
import type { OutgoingSms, SmsSender } from '../../application/ports/sms'

/** SMS_PROVIDER=log: messages are written to the log instead of sent, for trying the service out. */
export class LogSmsSender implements SmsSender {
  constructor(private readonly logger: Logger) {}

  async send(sms: OutgoingSms) {
    const providerMessageId = `LOG${crypto.randomUUID().replace(/-/g, '')}`
    this.logger.info('sms written to the log (SMS_PROVIDER=log)', { providerMessageId, from: sms.from, to: sms.to, body: sms.body })
    return { providerMessageId }
  }

  /** Nothing is ever lost between the log and us: a crash before marking a message means it was not written. */
  async findSent() {
    return []
  }
}
