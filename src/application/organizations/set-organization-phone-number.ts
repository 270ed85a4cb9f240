import { InvalidError, NotFoundError } from '../../domain/errors'
import { FieldChecks, PHONE, PHONE_MEANING } from '../../domain/shared/fields'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * An operator's command (`intake org set-phone-number`): the number provisioned with the SMS provider,
 * which texts come from and inbound texts are matched by. One number belongs to one organization.
 */
export class SetOrganizationPhoneNumber {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  async execute(slug: string, phoneNumber: string): Promise<void> {
    InvalidError.throwIfAny(
      new FieldChecks().text('/phone', phoneNumber, PHONE, { meaning: PHONE_MEANING }).errors,
      'The phone number is not valid',
    )
    await this.unitOfWork.run(async (r) => {
      const organization = await r.organizations.findBySlug(slug)
      if (!organization) throw new NotFoundError('Organization')
      await r.organizations.update({ ...organization, phoneNumber }) // another organization's number is a ConflictError
      // An operator's command: no member did it.
      await this.audit.record(
        r,
        { organizationId: organization.id },
        { action: 'update', recordType: 'organization', recordId: organization.id, fields: ['phoneNumber'] },
      )
    })
  }
}
