import type { Actor } from '../../domain/auth/actor'
import { NotFoundError } from '../../domain/errors'
import { isUnattachedText, messageView, type MessageView } from '../../domain/messaging/message'
import type { Interaction } from '../../domain/needs/interaction'
import type { Page, PageRequest } from '../../domain/shared/page'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import type { AttachedTo } from '../ports/repositories/interaction-repository'
import type { WebhookEvents } from '../webhooks/webhook-events'

/** An inbound text of the actor's organization on no need; anything else, another organization's included, is not found. */
export async function findUnattachedText(r: Repositories, actor: Actor, id: string): Promise<Interaction> {
  const text = await r.interactions.findById(actor.organizationId, id)
  if (!text || !isUnattachedText(text)) throw new NotFoundError('Message')
  return text
}

/**
 * Puts the text and every other text on no need from (or in reply to) its number on the need, in the caller's
 * transaction: audited, and told to the live stream and webhooks as `message.attached` (docs/events.md).
 */
export async function attachTexts(
  r: Repositories,
  actor: Actor,
  text: Interaction,
  to: AttachedTo,
  services: { events: WebhookEvents; audit: AuditTrail },
): Promise<void> {
  const moved = await r.interactions.attachTextsOf(actor.organizationId, text.senderIdentifier, to)
  await services.events.emitEach(
    r,
    actor.organizationId,
    'message.attached',
    moved.map((interactionId) => ({ interactionId, needId: to.needId })),
  )
  const audited = moved.map((recordId) => ({ action: 'update', recordType: 'interaction', recordId, fields: ['needId'] }) as const)
  await services.audit.record(r, actor, ...audited)
}

// docs/api/organization.md "Messages": the inbound texts on no need, newest first, to those who may send texts.
export class ListUnattachedMessages {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<MessageView>> {
    authorize(actor, 'needs:send-sms')
    const { items, total } = await this.repositories.interactions.listUnattached(actor.organizationId, page)
    return { items: items.map((text) => messageView(actor, text)), total }
  }
}
