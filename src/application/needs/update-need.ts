import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { isAllowed } from '../../domain/auth/permissions'
import { hiddenContactFields } from '../../domain/constituents/redaction'
import { ConflictError, ForbiddenError, InvalidError } from '../../domain/errors'
import { withKeptPhone } from '../../domain/constituents/contact'
import {
  canTransition,
  changesBetween,
  dueDateFor,
  isOpen,
  needFieldErrors,
  type CustomFields,
  type Need,
  type NeedFields,
} from '../../domain/needs/need'
import { redactNeed } from '../../domain/needs/redaction'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { NeedMetrics } from '../ports/metrics'
import { phoneCountryOf } from '../organizations/phone-country'
import type { UnitOfWork } from '../ports/unit-of-work'
import { findVisibleNeed } from './find-need'
import { checkNeedReferences } from './need-references'
import type { WebhookEvents } from '../webhooks/webhook-events'
import type { AuditTrail } from '../audit/audit-trail'
import type { NeedNotifications } from './need-notifications'

// docs/api/needs.md "Needs"
/** A partial update: a field left out is unchanged; `customFields` replaces the whole object; `assignedTo: null` unassigns. */
export interface UpdateNeedInput extends NeedFields {
  assignedTo?: string | null
  partnerId?: string
}

export class UpdateNeed {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: WebhookEvents,
    private readonly audit: AuditTrail,
    private readonly notifications: NeedNotifications,
    private readonly metrics: NeedMetrics,
  ) {}

  async execute(actor: Actor, idOrReference: string, input: UpdateNeedInput): Promise<Need> {
    authorize(actor, 'needs:update')
    const { updated, resolved } = await this.unitOfWork.run(async (r) => {
      // The fields are checked before the need is looked for; a phone is read in the organization's country.
      const country = await phoneCountryOf(r, actor.organizationId)
      InvalidError.throwIfAny(needFieldErrors(input, country), 'The need has invalid fields')
      // Read together: on PostgreSQL, one round trip.
      const [before, endpoints] = await Promise.all([
        findVisibleNeed(r, actor, idOrReference),
        this.events.subscribers(r, actor.organizationId, 'need.updated'),
      ])
      if (before.isConfidential && !isAllowed(actor, 'needs:read-confidential')) {
        // Someone who cannot read the confidential fields may neither overwrite nor expose them.
        if (input.customFields !== undefined || input.isConfidential === false) {
          throw new ForbiddenError('Changing the details of a confidential need requires reading them')
        }
      }
      if (input.status && !canTransition(before.status, input.status)) {
        throw new ConflictError(`A need cannot move from ${before.status} to ${input.status}`)
      }
      const newPartner = input.partnerId !== undefined && input.partnerId !== before.partnerId
      const { partner } = await checkNeedReferences(r, actor.organizationId, {
        ...(newPartner ? { partnerId: input.partnerId } : {}),
        ...(typeof input.assignedTo === 'string' && input.assignedTo !== before.assignedTo ? { assignedTo: input.assignedTo } : {}),
      })

      const { assignedTo, dueDate, ...fields } = input
      const after: Need = { ...before, ...definedOnly(fields) }
      if (typeof assignedTo === 'string') after.assignedTo = assignedTo
      if (assignedTo === null) delete after.assignedTo
      // Contact keys the actor cannot see were not in what it read back, so their absence is no removal.
      if (input.customFields)
        after.customFields = { ...hiddenPart(actor, before.customFields), ...withKeptPhone(input.customFields, country) }
      if (dueDate) Object.assign(after, { dueDate, dueDateSetByHand: true })
      // Back to the SLA when asked, and on a move unless a date was set by hand: the new partner's SLA.
      else if (dueDate === null || (partner && isOpen(after.status) && !before.dueDateSetByHand)) {
        const slaHours = (partner ?? (await r.partners.findById(actor.organizationId, after.partnerId)))!.slaHours
        Object.assign(after, { dueDate: dueDateFor(before.createdAt, slaHours), dueDateSetByHand: false })
      }
      const now = this.clock.now()
      if (!isOpen(after.status) && isOpen(before.status)) after.resolvedAt = now
      if (isOpen(after.status)) delete after.resolvedAt
      const changes = changesBetween(before, after)
      const detailsChanged =
        (input.customFields !== undefined && JSON.stringify(input.customFields) !== JSON.stringify(before.customFields)) ||
        after.dueDateSetByHand !== before.dueDateSetByHand
      if (changes.length === 0 && !detailsChanged) return { updated: before, resolved: false }

      after.updatedAt = now
      // A member took it up: the person's text is no longer waiting (docs/api/needs.md "Attention").
      delete after.needsAttention
      await r.needs.update(after)
      await this.audit.record(r, actor, { action: 'update', recordType: 'need', recordId: after.id, fields: changedFields(before, after) })
      await r.needs.appendChanges(
        changes.map((change) => ({
          ...change,
          id: this.ids.nextInTimeOrder(),
          organizationId: after.organizationId,
          needId: after.id,
          changedBy: actor.memberId,
          changedAt: now,
        })),
      )
      await this.events.emitTo(r, after.organizationId, endpoints, 'need.updated', [{ needId: after.id }])
      if (after.assignedTo !== before.assignedTo) await this.notifications.assigned(r, after, actor.memberId)
      return { updated: after, resolved: isOpen(before.status) && !isOpen(after.status) }
    })
    if (resolved) this.metrics.resolved()
    return redactNeed(actor, updated)
  }
}

function hiddenPart(actor: Actor, customFields: CustomFields): CustomFields {
  const hidden: readonly string[] = hiddenContactFields(actor)
  return Object.fromEntries(Object.entries(customFields).filter(([key]) => hidden.includes(key)))
}

function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>
}
