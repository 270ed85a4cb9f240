import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { applyContactChanges, type ContactChanges } from '../../domain/constituents/contact'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import { phoneCountryOf } from '../organizations/phone-country'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { DuplicateDetection } from './duplicate-detection'
import type { AuditTrail } from '../audit/audit-trail'

// contact changes send the constituent through duplicate detection again (docs/api/needs.md "Needs")
export class UpdateConstituent {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly detection: DuplicateDetection,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string, changes: ContactChanges): Promise<Constituent> {
    authorize(actor, 'constituents:update')
    const updated = await this.unitOfWork.run(async (r) => {
      const [before, country] = await Promise.all([
        r.constituents.findById(actor.organizationId, id),
        phoneCountryOf(r, actor.organizationId),
      ])
      if (!before) throw new NotFoundError('Constituent')
      if (before.erasedAt) throw new ConflictError('An erased constituent cannot be given details again')
      const { details, errors, matchedFieldsChanged } = applyContactChanges(before, changes, country)
      if (errors.length > 0) throw new InvalidError('The constituent has invalid fields', errors)
      const after: Constituent = {
        ...details,
        id,
        organizationId: before.organizationId,
        householdId: before.householdId,
        createdAt: before.createdAt,
        updatedAt: this.clock.now(),
      }
      await r.constituents.update(after)
      await this.audit.record(r, actor, { action: 'update', recordType: 'constituent', recordId: id, fields: changedFields(before, after) })
      if (matchedFieldsChanged) await this.detection.run(r, after)
      return after
    })
    return withoutHiddenContact(actor, updated)
  }
}
