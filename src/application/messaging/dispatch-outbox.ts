import { ProviderError } from '../../domain/errors'
import { MAX_ATTEMPTS, retryDelayMs, type OutboxMessage } from '../../domain/messaging/outbox'
import type { Clock } from '../ports/clock'
import type { Logger } from '../ports/logger'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { OrganizationMailer } from './organization-mailer'

/** How long a claim holds: a worker that dies mid-send lets its messages be tried again after this. */
export const CLAIM_LEASE_MS = 60_000

/**
 * Sends what the outbox holds: claims due messages in a transaction, sends each outside it, records the
 * outcome. Retryable failures come back with exponential backoff, at most MAX_ATTEMPTS tries in all.
 */
export class DispatchOutbox {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly mailer: OrganizationMailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** One pass; answers how many messages it handled. */
  async runOnce(batchSize = 20): Promise<number> {
    const now = this.clock.now()
    const claimed = await this.unitOfWork.run((r) => r.outbox.claimDue(now, batchSize, new Date(now.getTime() + CLAIM_LEASE_MS)))
    await Promise.all(claimed.map((message) => this.deliver(message)))
    return claimed.length
  }

  private async deliver(message: OutboxMessage): Promise<void> {
    try {
      const { messageId } = await this.mailer.send(message.organizationId, message.payload.email)
      await this.unitOfWork.run((r) => r.outbox.markSent(message.id, this.clock.now(), messageId))
    } catch (error) {
      const attempts = message.attempts + 1
      const reason = error instanceof ProviderError ? error.message : 'unexpected error while sending'
      const retryable = error instanceof ProviderError ? error.retryable : true
      if (!(error instanceof ProviderError)) this.logger.error('outbox delivery failed', { messageId: message.id, error: String(error) })
      if (retryable && attempts < MAX_ATTEMPTS) {
        const next = new Date(this.clock.now().getTime() + retryDelayMs(attempts))
        await this.unitOfWork.run((r) => r.outbox.reschedule(message.id, attempts, next, reason))
      } else {
        this.logger.warn('outbox message failed for good', { messageId: message.id, organizationId: message.organizationId, attempts, reason })
        await this.unitOfWork.run((r) => r.outbox.markFailed(message.id, attempts, reason))
      }
    }
  }
}
