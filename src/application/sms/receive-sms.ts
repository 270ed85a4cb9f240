import type { Constituent } from '../../domain/constituents/constituent'
import type { Interaction } from '../../domain/needs/interaction'
import type { Need } from '../../domain/needs/need'
import { smsKeywordOf } from '../../domain/messaging/sms'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Logger } from '../ports/logger'
import type { TextMetrics } from '../ports/metrics'
import type { Repositories } from '../ports/repositories'
import type { SmsWebhookVerifier } from '../ports/sms'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditTrail } from '../audit/audit-trail'
import type { HelpAnswer } from './help-answer'
import { signedParams, type ProviderWebhookCall } from './provider-webhook'

/**
 * docs/api/organization.md "SMS", inbound: the organization is the one whose number was texted. STOP and its kin opt the
 * sender out of that organization's messages, START and its kin back in, HELP and AYUDA are answered (`HelpAnswer`),
 * each in English or Spanish (`SMS_KEYWORDS`); every message, keywords too, becomes an `sms` interaction on the
 * newest open need of a constituent with that number; when all their needs are resolved, on the newest, marked for
 * attention; or stays unattached (GET /api/messages).
 */
export class ReceiveSms {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly verifier: SmsWebhookVerifier,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly logger: Logger,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
    private readonly help: HelpAnswer,
    private readonly metrics: TextMetrics,
  ) {}

  async execute(request: ProviderWebhookCall): Promise<void> {
    const { From: from, To: to, Body: body = '', MessageSid: messageSid } = signedParams(this.verifier, request)
    if (!from || !to) return
    const recorded = await this.unitOfWork.run(async (r) => {
      // Read together: on PostgreSQL, one round trip with BEGIN.
      const [recorded, organization] = await Promise.all([
        messageSid ? r.interactions.findByProviderMessageId(messageSid) : undefined,
        r.organizations.findByPhoneNumber(to),
      ])
      // Twilio retries a webhook it got no answer to: the same message is recorded once.
      if (recorded) return false
      if (!organization) {
        this.logger.warn('inbound sms to a number no organization has', { to })
        return false
      }
      const now = this.clock.now()
      const keyword = smsKeywordOf(body)
      if (keyword?.keyword === 'opt-out') await r.smsOptOuts.optOut(organization.id, from, now)
      if (keyword?.keyword === 'opt-in') await r.smsOptOuts.optIn(organization.id, from)
      const [constituents, endpoints] = await Promise.all([
        r.constituents.findByPhone(organization.id, from),
        this.events.subscribers(r, organization.id, 'sms.received'),
      ])
      const need = await this.needOf(r, organization.id, constituents, keyword === undefined)
      const constituentId = need?.constituentId ?? constituents[0]?.id
      const interaction: Interaction = {
        id: this.ids.nextInTimeOrder(),
        organizationId: organization.id,
        channel: 'sms',
        direction: 'inbound',
        senderIdentifier: from,
        content: body,
        createdAt: now,
        ...(messageSid ? { providerMessageId: messageSid } : {}),
        ...(need ? { needId: need.id, partnerId: need.partnerId } : {}),
        ...(constituentId ? { constituentId } : {}),
      }
      await r.interactions.insert(interaction)
      if (keyword?.keyword === 'help') await this.help.send(r, organization, interaction, keyword.language)
      await this.events.emitTo(r, organization.id, endpoints, 'sms.received', [
        { interactionId: interaction.id, ...(need ? { needId: need.id } : {}) },
      ])
      await this.audit.record(
        r,
        { organizationId: organization.id },
        { action: 'receive_sms', recordType: 'interaction', recordId: interaction.id },
      )
      return true
    })
    if (recorded) this.metrics.text('received')
  }

  /**
   * The newest open need of the people with that number; when all are resolved, the newest of them, marked
   * for attention (docs/api/needs.md "Attention") unless the text is a keyword the service answers itself.
   */
  private async needOf(r: Repositories, organizationId: string, people: readonly Constituent[], marks: boolean): Promise<Need | undefined> {
    const ids = people.map((c) => c.id)
    const [open] = await r.needs.newestOfConstituents(organizationId, ids, true)
    if (open || ids.length === 0) return open
    const [resolved] = await r.needs.newestOfConstituents(organizationId, ids)
    if (resolved && marks) await r.needs.setAttention(organizationId, resolved.id, true)
    return resolved
  }
}
