import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../domain/errors'
import { assertPartnerConsistent, partnerFieldErrors, type Partner, type PartnerFields } from '../../domain/partners/partner'
import { authorize } from '../auth/authorize'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api/needs.md "Partners"
export type UpdatePartnerInput = Partial<PartnerFields>

export class UpdatePartner {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string, input: UpdatePartnerInput): Promise<Partner> {
    authorize(actor, 'partners:update')
    InvalidError.throwIfAny(partnerFieldErrors(input, 'update'), 'The partner has invalid fields')
    return this.unitOfWork.run(async (r) => {
      const before = await r.partners.findById(actor.organizationId, id)
      if (!before) throw new NotFoundError('Partner')
      if (actor.role === 'partner_admin') assertOwnPartnerEdit(actor, before, input)

      const after: Partner = { ...before, ...input }
      if (before.isDefault && !after.isDefault) {
        throw new ConflictError('An organization always has a default partner: make another partner the default instead')
      }
      assertPartnerConsistent(after)
      if (after.isDefault && !before.isDefault) await r.partners.clearDefaultExcept(actor.organizationId, after.id)
      await r.partners.update(after)
      await this.audit.record(r, actor, {
        action: 'update',
        recordType: 'partner',
        recordId: after.id,
        fields: changedFields(before, after),
      })
      return after
    })
  }
}

/** A partner_admin edits its own partner's details; which partner is the default, or archived, is the organization's call. */
function assertOwnPartnerEdit(actor: Actor, partner: Partner, input: UpdatePartnerInput): void {
  if (actor.partnerId !== partner.id) throw new ForbiddenError('Partner admins update their own partner only')
  const changesOrgLevel =
    (input.isDefault !== undefined && input.isDefault !== partner.isDefault) ||
    (input.isArchived !== undefined && input.isArchived !== partner.isArchived)
  if (changesOrgLevel) throw new ForbiddenError('Only an org_admin archives partners or changes the default partner')
}
