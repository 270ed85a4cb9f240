import { LogEmailSender } from '../../adapters/messaging/log-email-sender'
import { PostmarkEmailSender } from '../../adapters/messaging/postmark-email-sender'
import { SendgridEmailSender } from '../../adapters/messaging/sendgrid-email-sender'
import { SesEmailSender } from '../../adapters/messaging/ses-email-sender'
import { SmtpEmailSender } from '../../adapters/messaging/smtp-email-sender'
import { SmtpHostPolicy } from '../../adapters/messaging/smtp-host-policy'
import { DevelopmentOutbox } from '../../application/messaging/development-outbox'
import { OrganizationMailer } from '../../application/messaging/organization-mailer'
import { Outbox } from '../../application/messaging/outbox'
import type { Clock } from '../../application/ports/clock'
import type { Logger } from '../../application/ports/logger'
import { bindings } from './area'
import { PORTS } from './ports'

/** Email providers and the outbox every message is queued in; what the links and limits of messages are. */
export const messaging = bindings(({ config, bind, service }) => {
  const emailHosts = new SmtpHostPolicy({ allowedHosts: config.emailAllowedHosts, blockPrivate: config.emailBlockPrivateHosts })
  bind(PORTS.emailHosts).toConstantValue(emailHosts)
  bind(PORTS.emailSenders).toResolvedValue(
    (clock: Clock) => ({
      smtp: new SmtpEmailSender(emailHosts),
      postmark: new PostmarkEmailSender(),
      ses: new SesEmailSender(clock),
      sendgrid: new SendgridEmailSender(),
    }),
    [PORTS.clock],
  )
  bind(PORTS.fallbackEmail).toResolvedValue((logger: Logger) => new LogEmailSender(logger), [PORTS.logger])
  bind(PORTS.publicBaseUrl).toConstantValue(config.publicBaseUrl)
  bind(PORTS.sendLimits).toConstantValue(config.sendLimits)
  bind(PORTS.dispatchOptions).toConstantValue({
    leaseMs: config.outboxLeaseMs,
    smsStatusCallbackUrl: `${config.publicBaseUrl}/api/webhooks/twilio/status`,
  })
  service(Outbox, [PORTS.clock, PORTS.ids])
  service(DevelopmentOutbox, [PORTS.unitOfWork, PORTS.ids, PORTS.clock])
  service(OrganizationMailer, [PORTS.repositories, PORTS.secretBox, PORTS.emailSenders, PORTS.fallbackEmail, DevelopmentOutbox])
})
