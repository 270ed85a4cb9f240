import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { NO_CONTACT_GIVEN, readContactDetails, type ContactDetails } from '../../domain/constituents/contact'
import type { DuplicateHints } from '../../domain/constituents/duplicate-hints'
import { withoutHiddenContact } from '../../domain/constituents/redaction'
import { InvalidError } from '../../domain/errors'
import { authorize } from '../auth/authorize'
import { phoneCountryOf } from '../organizations/phone-country'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { ConstituentRegistry } from './constituent-registry'
import { hintsOf, type DuplicateDetection } from './duplicate-detection'
import { hintReadsOf, type AuditTrail } from '../audit/audit-trail'

// An addition to the interface (issue 3): staff register a person directly, with the fields an update takes.
export type CreateConstituentInput = ContactDetails & { householdId?: string }

/** The new constituent (as the caller may read it) and who it may be already (as the caller may learn it). */
export type CreatedConstituent = Constituent & DuplicateHints

export class CreateConstituent {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: ConstituentRegistry,
    private readonly detection: DuplicateDetection,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: CreateConstituentInput): Promise<CreatedConstituent> {
    authorize(actor, 'constituents:update')
    const { householdId, ...fields } = input
    const { constituent, hints } = await this.unitOfWork.run(async (r) => {
      // A national phone number is read as one of the organization's country.
      const { details, errors } = readContactDetails(fields, '', await phoneCountryOf(r, actor.organizationId))
      if (errors.length > 0) throw new InvalidError('The constituent has invalid fields', errors)
      if (Object.keys(details).length === 0) throw InvalidError.field('/', NO_CONTACT_GIVEN)
      if (householdId && !(await r.constituents.householdExists(actor.organizationId, householdId))) {
        throw InvalidError.field('/householdId', 'must name a household of this organization')
      }
      const registered = await this.registry.register(r, actor.organizationId, details, householdId)
      const hints = hintsOf(await this.detection.candidatesShownTo(r, actor, registered))
      await this.audit.record(
        r,
        actor,
        { action: 'create', recordType: 'constituent', recordId: registered.constituent.id },
        ...hintReadsOf(hints.possibleDuplicates ?? []),
      )
      return { constituent: registered.constituent, hints }
    })
    return { ...withoutHiddenContact(actor, constituent), ...hints }
  }
}
