import { deliveryErrorOf } from '../../domain/messaging/delivery-errors'
import { advancesDelivery, deliveryStatusOf, smsStatusEvent } from '../../domain/messaging/sms'
import type { Clock } from '../ports/clock'
import type { TextMetrics } from '../ports/metrics'
import type { SmsWebhookVerifier } from '../ports/sms'
import type { UnitOfWork } from '../ports/unit-of-work'
import { signedParams, type ProviderWebhookCall } from './provider-webhook'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * docs/api/organization.md "SMS": the provider's status callbacks move an sms interaction to delivered or failed,
 * a failure with the provider's reason in words (`deliveryErrorOf` of its `ErrorCode`).
 */
export class RecordSmsStatus {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly verifier: SmsWebhookVerifier,
    private readonly clock: Clock,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
    private readonly metrics: TextMetrics,
  ) {}

  async execute(request: ProviderWebhookCall): Promise<void> {
    const params = signedParams(this.verifier, request)
    const sid = params.MessageSid ?? params.SmsSid
    const status = deliveryStatusOf(params.MessageStatus ?? params.SmsStatus ?? '')
    const error = status === 'failed' ? deliveryErrorOf(params.ErrorCode || undefined) : undefined
    if (!sid || !status) return
    const moved = await this.unitOfWork.run(async (r) => {
      const interaction = await r.interactions.findByProviderMessageId(sid)
      // The callback can beat the provider's answer to our send: keep it until the send is recorded.
      if (!interaction) {
        await r.interactions.rememberEarlyStatus(sid, status, this.clock.now())
        return false
      }
      if (interaction.direction === 'outbound' && advancesDelivery(interaction.deliveryStatus, status)) {
        await r.interactions.setDelivery(interaction.organizationId, interaction.id, status, sid, error)
        await this.events.emit(r, interaction.organizationId, 'sms.status', smsStatusEvent(interaction, status))
        await this.audit.record(
          r,
          { organizationId: interaction.organizationId },
          { action: 'sms_status', recordType: 'interaction', recordId: interaction.id, fields: ['deliveryStatus'] },
        )
        return true
      }
      return false
    })
    if (moved && (status === 'delivered' || status === 'failed')) this.metrics.text(status)
  }
}
