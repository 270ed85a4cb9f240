import type { Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import { partnerFieldErrors, type Partner, type PartnerFields } from '../../domain/partners/partner'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api/needs.md "Partners": an addition, so an organization can add partners
export type CreatePartnerInput = Pick<PartnerFields, 'name' | 'slaHours'> & Partial<Omit<PartnerFields, 'name' | 'slaHours' | 'isArchived'>>

export class CreatePartner {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: CreatePartnerInput): Promise<Partner> {
    authorize(actor, 'partners:create')
    InvalidError.throwIfAny(partnerFieldErrors(input, 'create'), 'The partner has invalid fields')
    const partner: Partner = {
      ...input,
      id: this.ids.next(),
      organizationId: actor.organizationId,
      isArchived: false,
      isDefault: input.isDefault ?? false,
      createdAt: this.clock.now(),
    }
    return this.unitOfWork.run(async (r) => {
      // The single default moves in the same transaction (docs/api/needs.md "Partners").
      if (partner.isDefault) await r.partners.clearDefaultExcept(actor.organizationId, partner.id)
      await r.partners.insert(partner)
      await this.audit.record(r, actor, { action: 'create', recordType: 'partner', recordId: partner.id })
      return partner
    })
  }
}
