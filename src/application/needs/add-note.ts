import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import { noteErrors, type Interaction } from '../../domain/needs/interaction'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { UnitOfWork } from '../ports/unit-of-work'
import { findVisibleNeed } from './find-need'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditTrail } from '../audit/audit-trail'

export class AddNote {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, needId: string, content: string): Promise<Interaction> {
    authorize(actor, 'needs:add-note')
    InvalidError.throwIfAny(noteErrors(content), 'The note is not valid')
    return this.unitOfWork.run(async (r) => {
      // Read together: on PostgreSQL, one round trip with BEGIN.
      const [need, author, endpoints] = await Promise.all([
        findVisibleNeed(r, actor, needId),
        r.members.findById(actor.organizationId, actor.memberId),
        this.events.subscribers(r, actor.organizationId, 'note.added'),
      ])
      if (!author) throw new NotFoundError('Member')
      const note: Interaction = {
        id: this.ids.nextInTimeOrder(),
        organizationId: need.organizationId,
        partnerId: need.partnerId,
        needId: need.id,
        channel: 'note',
        senderIdentifier: author.fullName ?? author.email,
        content,
        createdAt: this.clock.now(),
      }
      await r.interactions.insert(note)
      await this.events.emitTo(r, note.organizationId, endpoints, 'note.added', [{ needId: need.id, interactionId: note.id }])
      await this.audit.record(r, actor, { action: 'add_note', recordType: 'need', recordId: need.id })
      return note
    })
  }
}
