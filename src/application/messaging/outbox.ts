import type { EmailMessage } from '../../domain/messaging/email'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'

/** Puts messages in the outbox inside the caller's transaction; the dispatcher sends them after commit. */
export class Outbox {
  constructor(
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async email(r: Repositories, organizationId: string, email: EmailMessage): Promise<string> {
    const now = this.clock.now()
    const id = this.ids.next()
    await r.outbox.enqueue({
      id,
      organizationId,
      payload: { channel: 'email', email },
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    })
    return id
  }
}
