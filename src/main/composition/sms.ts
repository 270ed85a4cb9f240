import { LogSmsSender } from '../../adapters/messaging/log-sms-sender'
import { TwilioSmsSender, TwilioWebhookVerifier } from '../../adapters/messaging/twilio-sms-sender'
import { AuditTrail } from '../../application/audit/audit-trail'
import type { Logger } from '../../application/ports/logger'
import { NeedIntake } from '../../application/needs/need-intake'
import { AttachMessage } from '../../application/sms/attach-message'
import { ListUnattachedMessages } from '../../application/sms/messages'
import { HelpAnswer } from '../../application/sms/help-answer'
import { DevelopmentOutbox, KeptTexts } from '../../application/messaging/development-outbox'
import { Outbox } from '../../application/messaging/outbox'
import { ReceiveSms } from '../../application/sms/receive-sms'
import { ReplyToMessage } from '../../application/sms/reply-to-message'
import { StartNeedFromMessage } from '../../application/sms/start-need-from-message'
import { TextSending } from '../../application/sms/text-sending'
import { RecordSmsStatus } from '../../application/sms/record-sms-status'
import { WebhookEvents } from '../../application/webhooks/webhook-events'
import { area } from './area'
import { PORTS } from './ports'

const { unitOfWork, smsWebhooks, clock } = PORTS

export const sms = area('sms', ({ config, bind, service }) => {
  const twilio = config.sms.provider === 'twilio' ? { sid: config.sms.accountSid!, token: config.sms.authToken! } : undefined
  // The log's texts are kept for the organization's admins (docs/api/organization.md "Development outbox").
  bind(PORTS.sms).toResolvedValue(
    (logger: Logger, kept: DevelopmentOutbox) =>
      twilio ? new TwilioSmsSender(twilio.sid, twilio.token, config.sms.apiBaseUrl) : new KeptTexts(new LogSmsSender(logger), kept),
    [PORTS.logger, DevelopmentOutbox],
  )
  // Without Twilio's auth token no webhook can prove where it comes from: every one is refused.
  bind(smsWebhooks).toConstantValue(config.sms.authToken ? new TwilioWebhookVerifier(config.sms.authToken) : { isAuthentic: () => false })
  bind(PORTS.senderNumberRequired).toConstantValue(twilio !== undefined)
  service(HelpAnswer, [Outbox, PORTS.ids])
  return {
    receive: service(ReceiveSms, [
      unitOfWork,
      smsWebhooks,
      clock,
      PORTS.ids,
      PORTS.logger,
      WebhookEvents,
      AuditTrail,
      HelpAnswer,
      PORTS.metrics,
    ]),
    recordStatus: service(RecordSmsStatus, [unitOfWork, smsWebhooks, clock, WebhookEvents, AuditTrail, PORTS.metrics]),
    listUnattached: service(ListUnattachedMessages, [PORTS.repositories]),
    attach: service(AttachMessage, [unitOfWork, WebhookEvents, AuditTrail]),
    startNeed: service(StartNeedFromMessage, [unitOfWork, PORTS.ids, NeedIntake, WebhookEvents, AuditTrail, PORTS.metrics]),
    reply: service(ReplyToMessage, [unitOfWork, PORTS.ids, TextSending]),
  }
})
