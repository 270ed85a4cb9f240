import type { Actor } from '../../domain/auth/actor'
import { authorize } from '../auth/authorize'
import type { AuditTrail } from '../audit/audit-trail'
import { findVisibleNeed } from '../needs/find-need'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { WebhookEvents } from '../webhooks/webhook-events'
import { attachTexts, findUnattachedText } from './messages'

/**
 * docs/api/organization.md "Messages": puts a text on no need, and every other from its number, on a need the
 * member sees; the texts name the need's person when it has one. Answers the ids of the texts moved.
 */
export class AttachMessage {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, messageId: string, needId: string): Promise<void> {
    authorize(actor, 'needs:send-sms')
    await this.unitOfWork.run(async (r) => {
      const [text, need] = await Promise.all([findUnattachedText(r, actor, messageId), findVisibleNeed(r, actor, needId)])
      const to = { needId: need.id, partnerId: need.partnerId, ...(need.constituentId ? { constituentId: need.constituentId } : {}) }
      await attachTexts(r, actor, text, to, { events: this.events, audit: this.audit })
    })
  }
}
