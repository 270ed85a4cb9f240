import type { Actor } from '../auth/actor'
import { MATCHED_FIELDS, type ContactField } from './contact'
import { MATCH_REASONS, type MatchReason, type PossibleDuplicate } from './matching'
import { mayReadContact, PERSONAL_DETAILS } from './redaction'

/**
 * The personal detail each reason tells about the candidate: "same phone" says the candidate has the phone
 * just given. A reason is for those who may read that detail, the rule that also lets them search by it
 * (docs/constituents.md "Duplicate detection"); names are read by every caseworker.
 */
const DETAIL_OF_REASON: Record<MatchReason, ContactField> = {
  'same phone': 'phone',
  'same email': 'email',
  'same name and date of birth': 'dateOfBirth',
  'same last name and address': 'addressStreet',
}

/**
 * What a creation or a check answers of the candidates shown to its caller: those found on the details it may
 * read (`DuplicateDetection.candidatesShownTo`), so every reason is one it may read.
 */
export interface DuplicateHints {
  possibleDuplicates?: PossibleDuplicate[]
  duplicateWarning?: string
}

/**
 * A need's duplicate warning, stored as found on every detail, as the actor may read it: whole when it may
 * read every detail matching reads; otherwise the reasons it may read, without the count (which may include
 * people alike on details it may not read), and no warning when it may read none of them. So it reads the
 * same whether or not such a detail matched.
 */
export function duplicateWarningFor(actor: Actor, warning: string): string | undefined {
  if (MATCHED_FIELDS.every((field) => mayReadContact(actor, field))) return warning
  const readable = MATCH_REASONS.filter((reason) => warning.includes(reason) && mayReadContact(actor, DETAIL_OF_REASON[reason]))
  return readable.length === 0 ? undefined : `Possible duplicate: ${readable.join(', ')}`
}

/** The personal details a shown candidate's reasons told, in the order of PERSONAL_DETAILS: what its read names. */
export function detailsToldBy(reasons: readonly MatchReason[]): ContactField[] {
  return PERSONAL_DETAILS.filter((field) => reasons.some((reason) => DETAIL_OF_REASON[reason] === field))
}
