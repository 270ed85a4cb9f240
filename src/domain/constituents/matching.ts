import { mailboxOf } from '../messaging/mailbox'
import type { ContactDetails } from './contact'

/**
 * Duplicate detection keys (docs/api/needs.md "Needs"). Two constituents of one organization are candidates when they
 * share any key: the same E.164 phone, the same mailbox (`mailboxOf`: case, a `+tag`, Gmail's dots aside), the same normalized first and
 * last name with the same date of birth, or the same last name and street address. Each key is stored
 * and indexed, so finding candidates costs the same with 100 or 1,000,000 constituents.
 */
export interface MatchKeys {
  phone?: string
  email?: string
  nameAndBirth?: string
  lastNameAndStreet?: string
}

export const MATCH_REASONS = ['same phone', 'same email', 'same name and date of birth', 'same last name and address'] as const
export type MatchReason = (typeof MATCH_REASONS)[number]

export const REASON_OF: Record<keyof MatchKeys, MatchReason> = {
  phone: 'same phone',
  email: 'same email',
  nameAndBirth: 'same name and date of birth',
  lastNameAndStreet: 'same last name and address',
}

/** Lower case, no accents, no punctuation, single spaces: "  O'Brien-Núñez " → "obrien nunez". */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

export function matchKeysOf(c: ContactDetails): MatchKeys {
  const first = c.firstName ? normalizeText(c.firstName) : ''
  const last = c.lastName ? normalizeText(c.lastName) : ''
  const street = c.addressStreet ? normalizeText(c.addressStreet) : ''
  return {
    ...(c.phone ? { phone: c.phone } : {}),
    ...(c.email ? { email: mailboxOf(c.email) } : {}),
    ...(first && last && c.dateOfBirth ? { nameAndBirth: `${first}|${last}|${c.dateOfBirth}` } : {}),
    ...(last && street ? { lastNameAndStreet: `${last}|${street}` } : {}),
  }
}

/** Another constituent the new or changed one may be, and why: what creation answers beside the warning. */
export interface PossibleDuplicate {
  constituentId: string
  reasons: MatchReason[]
}

/** The keys two constituents share, as reasons. */
export function sharedReasons(a: MatchKeys, b: MatchKeys): MatchReason[] {
  return (Object.keys(REASON_OF) as Array<keyof MatchKeys>).filter((k) => a[k] !== undefined && a[k] === b[k]).map((k) => REASON_OF[k])
}

/** The warning's length: its words and at most every reason once stay far under. */
export const DUPLICATE_WARNING = { maxLength: 200 } as const

/** The need's warning, e.g. "Possible duplicate of 2 constituents: same phone, same email". */
export function duplicateWarning(candidates: ReadonlyArray<{ reasons: readonly MatchReason[] }>): string | undefined {
  if (candidates.length === 0) return undefined
  const reasons = [...new Set(candidates.flatMap((c) => c.reasons))]
  const noun = candidates.length === 1 ? 'constituent' : 'constituents'
  return `Possible duplicate of ${candidates.length} ${noun}: ${reasons.join(', ')}`
}
