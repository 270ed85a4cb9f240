import type { Actor } from '../../domain/auth/actor'
import type { Constituent } from '../../domain/constituents/constituent'
import { readContactDetails, type ContactDetails } from '../../domain/constituents/contact'
import { phoneCountryOf } from '../organizations/phone-country'
import type { PossibleDuplicate } from '../../domain/constituents/matching'
import { InvalidError } from '../../domain/errors'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { hintsOf, type DuplicateDetection } from './duplicate-detection'

/** A possible duplicate as a check shows it: who (by name, which every caseworker reads) and why. */
export type ShownDuplicate = PossibleDuplicate & Pick<Constituent, 'firstName' | 'lastName'>

export interface DuplicateCheck {
  possibleDuplicates: ShownDuplicate[]
  duplicateWarning?: string
}

/**
 * Who a person with these details may be already, before anyone registers them (docs/constituents.md
 * "Duplicate detection"): the candidates a creation would name, matched on the details the caller may read
 * only, with their names. A read: nothing is stored but the audit trail's reads of the candidates shown.
 */
export class CheckDuplicates {
  constructor(
    private readonly repositories: Repositories,
    private readonly detection: DuplicateDetection,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: ContactDetails): Promise<DuplicateCheck> {
    authorize(actor, 'constituents:read')
    const { details, errors } = readContactDetails(input, '', await phoneCountryOf(this.repositories, actor.organizationId))
    if (errors.length > 0) throw new InvalidError('The details have invalid fields', errors)
    const candidates = await this.detection.candidatesShownTo(this.repositories, actor, details)
    const { possibleDuplicates = [], duplicateWarning } = hintsOf(candidates)
    const people = new Map(candidates.map((c) => [c.constituent.id, c.constituent]))
    const shown = possibleDuplicates.map((hint) => {
      const { firstName, lastName } = people.get(hint.constituentId) ?? {}
      return { ...hint, ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}) }
    })
    await this.audit.duplicatesShown(actor, shown)
    return { possibleDuplicates: shown, ...(duplicateWarning ? { duplicateWarning } : {}) }
  }
}
