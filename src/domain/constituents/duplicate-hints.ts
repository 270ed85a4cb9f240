import type { Actor } from '../auth/actor'
import type { ContactField } from './contact'
import { duplicateWarning, MATCH_REASONS, type MatchReason, type PossibleDuplicate } from './matching'
import { mayReadContact, PERSONAL_DETAILS } from './redaction'

/**
 * The personal detail each reason tells about the candidate: "same phone" says the candidate has the phone
 * just given. A hint on a reason is for those who may read that detail, the rule that also lets them
 * search by it (docs/constituents.md "Duplicate detection"); names are read by every caseworker.
 */
const DETAIL_OF_REASON: Record<MatchReason, ContactField> = {
  'same phone': 'phone',
  'same email': 'email',
  'same name and date of birth': 'dateOfBirth',
  'same last name and address': 'addressStreet',
}

/** The warning's words for matches on details the reader may not read: that one exists, not who nor how many. */
export const WITHHELD_DUPLICATE_WARNING = 'Possible duplicate, on details you may not read'

/** What a creation answers of the candidates found, as its caller may learn them. */
export interface DuplicateHints {
  possibleDuplicates?: PossibleDuplicate[]
  duplicateWarning?: string
}

function readableReasons(actor: Actor, reasons: readonly MatchReason[]): MatchReason[] {
  return reasons.filter((reason) => mayReadContact(actor, DETAIL_OF_REASON[reason]))
}

/**
 * The candidates the actor may know of, each with the reasons it may read, and the warning as it may read
 * it. A candidate found only on details the actor may not read is left out: the warning alone says that
 * such a match exists (the household match is recorded all the same, for those who resolve them).
 */
export function duplicateHintsFor(actor: Actor, candidates: readonly PossibleDuplicate[]): DuplicateHints {
  const warning = duplicateWarning(candidates)
  if (warning === undefined) return {}
  const shown = candidates
    .map((candidate) => ({ constituentId: candidate.constituentId, reasons: readableReasons(actor, candidate.reasons) }))
    .filter((candidate) => candidate.reasons.length > 0)
  return { ...(shown.length > 0 ? { possibleDuplicates: shown } : {}), duplicateWarning: duplicateWarningFor(actor, warning) }
}

/**
 * A duplicate warning (a need's, as stored) as the actor may read it: unchanged when it may read every
 * reason in it; otherwise without the count, naming the reasons it may read and that others exist.
 */
export function duplicateWarningFor(actor: Actor, warning: string): string {
  const reasons = MATCH_REASONS.filter((reason) => warning.includes(reason))
  const readable = readableReasons(actor, reasons)
  if (readable.length === reasons.length) return warning
  return readable.length === 0 ? WITHHELD_DUPLICATE_WARNING : `Possible duplicate: ${readable.join(', ')}; and on details you may not read`
}

/** The personal details a shown candidate's reasons told, in the order of PERSONAL_DETAILS: what its read names. */
export function detailsToldBy(reasons: readonly MatchReason[]): ContactField[] {
  return PERSONAL_DETAILS.filter((field) => reasons.some((reason) => DETAIL_OF_REASON[reason] === field))
}
