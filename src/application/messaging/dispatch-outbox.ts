import { ProviderError } from '../ports/provider-error'
import { MAX_ATTEMPTS, retryDelayMs, type ClaimedOutboxMessage, type OutboxPayload, type SmsMessage } from '../../domain/messaging/outbox'
import { WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from '../../domain/webhooks/webhook'
import { WebhookRefused, type WebhookDelivery } from '../webhooks/webhook-delivery'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { FederationChannel } from '../federation/federation-channel'
import { UNSENT_TEXT } from '../../domain/messaging/delivery-errors'
import { advancesDelivery, keptProviderMessageId, smsStatusEvent } from '../../domain/messaging/sms'
import { DEFAULT_MAX_CONCURRENCY } from '../../domain/organizations/organization'
import type { Clock } from '../ports/clock'
import type { Logger } from '../ports/logger'
import type { DeliveryMetrics } from '../ports/metrics'
import type { Repositories } from '../ports/repositories'
import type { SmsSender } from '../ports/sms'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { OrganizationMailer } from './organization-mailer'

export interface DispatchOptions {
  /** How long a claim holds. Longer than any provider call (they give up after 15 s). */
  leaseMs: number
  /** Where the SMS provider reports delivery. */
  smsStatusCallbackUrl?: string
}

/** At most this many organizations and messages per organization in one claim. */
const CLAIM_BATCH = 100

/** How far before an interrupted attempt the provider is asked about it, for clocks that disagree. */
const IN_DOUBT_MARGIN_MS = 5 * 60_000

/** The provider could not be asked whether an interrupted text left: sending it now could send it twice. */
class StillInDoubt extends Error {}

/** The provider took the message, but its outcome could not be recorded: the next try must ask first. */
class SentButUnrecorded extends Error {}

/**
 * Sends what the outbox holds (docs/api/organization.md "SMS"). A claim takes, per organization, only as many messages as its
 * `maxConcurrency` leaves free, counting every live claim in the database, so the cap holds across
 * workers and processes. Each send happens outside any transaction; its outcome is recorded under the
 * claim's fence. Retryable failures come back with exponential backoff, at most MAX_ATTEMPTS tries.
 * A text whose worker died mid-send is first looked up at the provider, so it is never sent twice.
 */
export class DispatchOutbox {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly mailer: OrganizationMailer,
    private readonly sms: SmsSender,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: DispatchOptions,
    private readonly metrics: DeliveryMetrics,
    private readonly webhooks: WebhookDelivery,
    private readonly events: WebhookEvents,
    private readonly federation: FederationChannel,
  ) {}

  /** Claims what the organizations' free slots allow; the caller delivers each. */
  claim(): Promise<ClaimedOutboxMessage[]> {
    const now = this.clock.now()
    const lockedUntil = new Date(now.getTime() + this.options.leaseMs)
    return this.unitOfWork.run(async (r) => {
      const claimed: ClaimedOutboxMessage[] = []
      for (const organizationId of await r.outbox.organizationsWithDue(now, CLAIM_BATCH)) {
        await r.organizations.lockForUpdate(organizationId) // workers of other processes count after us
        const organization = await r.organizations.findById(organizationId)
        const free = (organization?.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY) - (await r.outbox.countInFlight(organizationId, now))
        claimed.push(...(await r.outbox.claimDue(organizationId, now, Math.min(free, CLAIM_BATCH), lockedUntil)))
      }
      return claimed
    })
  }

  /** One pass: claims and delivers, awaiting every send; answers how many messages it handled. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim()
    await Promise.all(claimed.map((message) => this.deliver(message)))
    return claimed.length
  }

  /** Sends one claimed message and records the outcome. Never throws: failures are recorded or logged. */
  async deliver(message: ClaimedOutboxMessage): Promise<void> {
    try {
      const sent = await this.send(message)
      // An id past the bound is dropped rather than kept: answers give interactions with every stored value.
      const providerMessageId = keptProviderMessageId(sent.providerMessageId)
      const { responseStatus } = sent
      this.metrics.sent(message.payload.channel)
      if (isNotification(message.payload)) this.metrics.notificationSent()
      await this.unitOfWork
        .run((r) => this.recordSent(r, message, providerMessageId, responseStatus))
        .catch((error: unknown) => {
          throw new SentButUnrecorded(
            `sent, but the outcome could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
          )
        })
    } catch (error) {
      await this.recordFailure(message, error).catch((failure) =>
        this.logger.error('could not record an outbox outcome', { messageId: message.id, error: String(failure) }),
      )
    }
  }

  private async send(message: ClaimedOutboxMessage): Promise<{ providerMessageId?: string; responseStatus?: number }> {
    const { payload } = message
    if (payload.channel === 'email') {
      const mail = { outboxId: message.id, organizationId: message.organizationId }
      return { providerMessageId: (await this.mailer.send(mail, payload.email)).messageId }
    }
    // A webhook whose try was interrupted is sent again with the same webhook-id: receivers de-duplicate by it (docs/events.md).
    if (payload.channel === 'webhook')
      return { responseStatus: await this.webhooks.send(message.organizationId, message.id, payload.webhook) }
    // A partner's instance de-duplicates by webhook-id alike (docs/referrals.md "Replays").
    if (payload.channel === 'federation')
      return { responseStatus: await this.federation.deliver(message.organizationId, message.id, payload.federation) }
    return { providerMessageId: await this.sendSms(message, payload.sms) }
  }

  private async sendSms(message: ClaimedOutboxMessage, sms: SmsMessage): Promise<string | undefined> {
    const earlier = this.inDoubt(message)
      ? await this.findEarlierSend(sms, message.inFlightSince).catch((error: unknown) => {
          throw new StillInDoubt(
            `could not ask the provider about an earlier attempt: ${error instanceof Error ? error.message : String(error)}`,
          )
        })
      : undefined
    if (earlier) return earlier
    const { providerMessageId } = await this.sms.send({
      organizationId: message.organizationId,
      from: sms.from,
      to: sms.to,
      body: sms.body,
      ...(this.options.smsStatusCallbackUrl ? { statusCallbackUrl: this.options.smsStatusCallbackUrl } : {}),
    })
    return providerMessageId
  }

  /**
   * An earlier attempt began and nobody knows how it ended: its claim lapsed (the worker died) or it was
   * rescheduled without an answer (a timeout).
   */
  private inDoubt(message: ClaimedOutboxMessage): boolean {
    const claimedAt = message.lockedUntil.getTime() - this.options.leaseMs
    return message.inFlightSince.getTime() < claimedAt
  }

  /** The provider's id of this text if the interrupted attempt did reach it: one no interaction has yet. */
  private async findEarlierSend(sms: SmsMessage, since: Date): Promise<string | undefined> {
    const candidates = await this.sms.findSent({
      from: sms.from,
      to: sms.to,
      body: sms.body,
      since: new Date(since.getTime() - IN_DOUBT_MARGIN_MS),
    })
    for (const id of candidates) {
      if (!(await this.unitOfWork.run((r) => r.interactions.findByProviderMessageId(id)))) return id
    }
    return undefined
  }

  private async recordSent(
    r: Repositories,
    message: ClaimedOutboxMessage,
    providerMessageId: string | undefined,
    responseStatus: number | undefined,
  ): Promise<void> {
    const settled = await r.outbox.markSent(message.id, message.lockedUntil, this.clock.now(), providerMessageId, responseStatus)
    if (settled && message.payload.channel === 'webhook')
      await this.webhooks.recordOutcome(r, message.organizationId, message.payload.webhook, 'delivered')
    if (settled && message.payload.channel === 'sms') {
      const early = providerMessageId ? await r.interactions.takeEarlyStatus(providerMessageId) : undefined
      const status = early && advancesDelivery('sent', early) ? early : 'sent'
      const id = message.payload.sms.interactionId
      const { needId } = await r.interactions.setDelivery(message.organizationId, id, status, providerMessageId)
      await this.events.emit(r, message.organizationId, 'sms.status', smsStatusEvent({ id, needId }, status))
    }
    if (!settled) this.logger.warn('outbox outcome came after the claim lapsed', { messageId: message.id })
  }

  private async recordFailure(message: ClaimedOutboxMessage, error: unknown): Promise<void> {
    const attempts = message.attempts + 1
    const known = error instanceof ProviderError || error instanceof StillInDoubt || error instanceof SentButUnrecorded
    const reason = known ? error.message : 'unexpected error while sending'
    const retryable = error instanceof ProviderError ? error.retryable : true
    // A text that may have reached the provider (or did) is asked about before it is tried again.
    const inDoubt =
      error instanceof StillInDoubt || error instanceof SentButUnrecorded || (error instanceof ProviderError && error.outcomeUnknown)
    if (!known || error instanceof SentButUnrecorded)
      this.logger.error('outbox delivery failed', { messageId: message.id, error: String(error) })
    const responseStatus = error instanceof WebhookRefused ? error.responseStatus : undefined
    const fence = message.lockedUntil
    const schedule = retriesOf(message.payload)
    const final = !retryable || attempts >= schedule.maxAttempts
    this.metrics.failed(message.payload.channel, final)
    if (isNotification(message.payload)) this.metrics.notificationFailed(final)
    await this.unitOfWork.run(async (r) => {
      if (!final) {
        const next = new Date(this.clock.now().getTime() + schedule.delayMs(attempts))
        await r.outbox.reschedule(message.id, fence, attempts, next, reason, inDoubt, responseStatus)
        return
      }
      this.logger.warn('outbox message failed for good', {
        messageId: message.id,
        organizationId: message.organizationId,
        attempts,
        reason,
      })
      const settled = await r.outbox.markFailed(message.id, fence, attempts, reason, responseStatus)
      if (settled && message.payload.channel === 'sms') {
        const id = message.payload.sms.interactionId
        const { needId } = await r.interactions.setDelivery(message.organizationId, id, 'failed', undefined, UNSENT_TEXT)
        await this.events.emit(r, message.organizationId, 'sms.status', smsStatusEvent({ id, needId }, 'failed'))
      }
      if (settled && message.payload.channel === 'webhook')
        await this.webhooks.recordOutcome(r, message.organizationId, message.payload.webhook, 'failed')
      if (settled && message.payload.channel === 'federation')
        await this.federation.undelivered(r, message.organizationId, message.id, message.payload.federation)
    })
  }
}

/**
 * Mail and texts retry for half a minute; a webhook's receiver, or a partner's instance, may be down for hours
 * (docs/events.md "Retries", docs/referrals.md "Retries").
 */
function retriesOf(payload: OutboxPayload): { maxAttempts: number; delayMs: (attemptsSoFar: number) => number } {
  return payload.channel === 'webhook' || payload.channel === 'federation'
    ? { maxAttempts: WEBHOOK_MAX_ATTEMPTS, delayMs: webhookRetryDelayMs }
    : { maxAttempts: MAX_ATTEMPTS, delayMs: retryDelayMs }
}

function isNotification(payload: OutboxPayload): boolean {
  return payload.channel === 'email' && payload.email.kind === 'notification'
}
