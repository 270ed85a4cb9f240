import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import { noteErrors, type Interaction } from '../../domain/needs/interaction'
import type { InteractionView } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import { askedBy, type IdempotentCreates } from '../idempotency/idempotent-creates'
import { findVisibleInteraction, findVisibleNeed } from './find-need'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditTrail } from '../audit/audit-trail'

export class AddNote {
  constructor(
    private readonly repositories: Repositories,
    private readonly creates: IdempotentCreates,
    private readonly clock: Clock,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  /** `idempotencyKey`: a retry with it answers the note the first request added (docs/api/conventions.md "Retrying a create"). */
  async execute(actor: Actor, needId: string, content: string, idempotencyKey?: string): Promise<InteractionView> {
    authorize(actor, 'needs:add-note')
    InvalidError.throwIfAny(noteErrors(content), 'The note is not valid')
    return this.creates.once(
      askedBy(actor, 'add_note', idempotencyKey, { needId, content }),
      (unit) =>
        unit.run(async (r): Promise<InteractionView> => {
          // Read together: on PostgreSQL, one round trip with BEGIN.
          const [need, author, endpoints] = await Promise.all([
            findVisibleNeed(r, actor, needId),
            r.members.findById(actor.organizationId, actor.memberId),
            this.events.subscribers(r, actor.organizationId, 'note.added'),
          ])
          if (!author) throw new NotFoundError('Member')
          const note: Interaction = {
            id: unit.recordId,
            organizationId: need.organizationId,
            partnerId: need.partnerId,
            needId: need.id,
            channel: 'note',
            senderIdentifier: author.fullName ?? author.email,
            content,
            createdAt: this.clock.now(),
          }
          await r.interactions.insert(note)
          // A member took it up: the person's text is no longer waiting (docs/api/needs.md "Attention").
          if (need.needsAttention) await r.needs.setAttention(need.organizationId, need.id, false)
          await this.events.emitTo(r, note.organizationId, endpoints, 'note.added', [{ needId: need.id, interactionId: note.id }])
          await this.audit.record(r, actor, { action: 'add_note', recordType: 'need', recordId: need.id })
          return note
        }),
      (noteId) => findVisibleInteraction(this.repositories, actor, noteId),
    )
  }
}
