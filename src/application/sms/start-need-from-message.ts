import { seesPartner, type Actor } from '../../domain/auth/actor'
import { ForbiddenError, InvalidError } from '../../domain/errors'
import { PUBLIC_DESCRIPTION, type Need } from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { FieldChecks } from '../../domain/shared/fields'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { NeedIntake } from '../needs/need-intake'
import { checkNeedReferences } from '../needs/need-references'
import { numbered } from '../needs/numbering-need'
import type { IdGenerator } from '../ports/ids'
import type { NeedMetrics } from '../ports/metrics'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { WebhookEvents } from '../webhooks/webhook-events'
import { attachTexts, findUnattachedText } from './messages'

export interface StartNeedInput {
  partnerId: string
  /** What the need is about, in the member's words; kept as the need's `customFields.description`. */
  description?: string
}

/**
 * docs/api/organization.md "Messages": a need for the person who texted, of the partner asked. The person is the
 * one the number finds (the newest registered, when several share it), or one made from the number; every text
 * on no need from that number goes on the new need. Answers the need as GET /api/needs/{id} does.
 */
export class StartNeedFromMessage {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly intake: NeedIntake,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
    private readonly metrics: NeedMetrics,
  ) {}

  async execute(actor: Actor, messageId: string, input: StartNeedInput): Promise<Need> {
    authorize(actor, 'needs:send-sms')
    authorize(actor, 'needs:create')
    if (!seesPartner(actor, input.partnerId)) throw new ForbiddenError('Partner members create needs for their own partner only')
    const { description } = input
    InvalidError.throwIfAny(
      new FieldChecks().text('/description', description, PUBLIC_DESCRIPTION, { presence: 'optional' }).errors,
      'The need has invalid fields',
    )
    const pending = await this.unitOfWork.run(async (r) => {
      const text = await findUnattachedText(r, actor, messageId)
      const [person] = text.senderIdentifier ? await r.constituents.findByPhone(actor.organizationId, text.senderIdentifier) : []
      const { partner, householdId } = await checkNeedReferences(
        r,
        actor.organizationId,
        { partnerId: input.partnerId, ...(person ? { constituentId: person.id } : {}) },
        actor,
      )
      const recorded = await this.intake.recordWhenChecked(
        r,
        actor.organizationId,
        Promise.resolve({
          id: this.ids.nextInTimeOrder(),
          organizationId: actor.organizationId,
          partner: partner!,
          // Without a person on file, the number makes one (its contact key), as a need's fields do.
          customFields: { ...(description ? { description } : {}), ...(person ? {} : { phone: text.senderIdentifier }) },
          isConfidential: false,
          ...(person ? { constituentId: person.id } : {}),
          ...(householdId ? { householdId } : {}),
          createdBy: actor.memberId,
        }),
      )
      const { need } = recorded
      const to = { needId: need.id, partnerId: need.partnerId, ...(need.constituentId ? { constituentId: need.constituentId } : {}) }
      await attachTexts(r, actor, text, to, { events: this.events, audit: this.audit })
      return need
    })
    const need = await numbered(pending)
    this.metrics.opened('staff')
    return redactNeed(actor, need)
  }
}
