import type { Logger } from '../../application/ports/logger'
import type { OutgoingSms, SmsSender } from '../../application/ports/sms'

/**
 * SMS_PROVIDER=log: texts go nowhere, for trying the service out, and the log says so. The line names the
 * text by the id it is kept under (the interaction's and the outbox message's `providerMessageId`) and its
 * length, nothing else: the numbers and the words are personal data, and erasure cannot reach a log (docs/privacy.md).
 */
export class LogSmsSender implements SmsSender {
  constructor(private readonly logger: Logger) {}

  async send(sms: OutgoingSms) {
    const providerMessageId = `LOG${crypto.randomUUID().replace(/-/g, '')}`
    this.logger.info('sms not sent: SMS_PROVIDER=log', { providerMessageId, length: sms.body.length })
    return { providerMessageId }
  }

  /** Nothing is ever lost between the log and us: a crash before marking a message means it was not written. */
  async findSent() {
    return []
  }
}
