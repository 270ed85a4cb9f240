import type { EmailMessage } from '../../domain/messaging/email'
import type { FederationMessage, OutboxPayload, SmsMessage, WebhookMessage } from '../../domain/messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'

/** Puts messages in the outbox inside the caller's transaction; the dispatcher sends them after commit. */
export class Outbox {
  constructor(
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  email(r: Repositories, organizationId: string, email: EmailMessage): Promise<string> {
    return this.enqueue(r, organizationId, { channel: 'email', email })
  }

  sms(r: Repositories, organizationId: string, sms: SmsMessage): Promise<string> {
    return this.enqueue(r, organizationId, { channel: 'sms', sms })
  }

  webhook(r: Repositories, organizationId: string, webhook: WebhookMessage): Promise<string> {
    return this.enqueue(r, organizationId, { channel: 'webhook', webhook })
  }

  federation(r: Repositories, organizationId: string, federation: FederationMessage): Promise<string> {
    return this.enqueue(r, organizationId, { channel: 'federation', federation })
  }

  private async enqueue(r: Repositories, organizationId: string, payload: OutboxPayload): Promise<string> {
    const now = this.clock.now()
    const id = this.ids.nextInTimeOrder()
    await r.outbox.enqueue({
      id,
      organizationId,
      payload,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    })
    return id
  }
}
