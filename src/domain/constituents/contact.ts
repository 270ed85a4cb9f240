import type { FieldError } from '../errors'
import { EMAIL, EMAIL_MEANING, matches, NAME, PHONE, PHONE_MEANING, textProblem, type TextRule } from '../shared/fields'

// The limits every constituent field keeps, wherever it arrives from.
export const CONTACT_FIELDS = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'dateOfBirth',
  'addressStreet',
  'addressCity',
  'addressState',
  'addressZip',
] as const
export type ContactField = (typeof CONTACT_FIELDS)[number]
export type ContactDetails = Partial<Record<ContactField, string>>

export const ZIP = { pattern: '^[0-9]{5}$', maxLength: 5 } as const satisfies TextRule
export const ZIP_MEANING = 'a five-digit ZIP code'
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
/** Names and address lines: blank means absent, so no minimum. */
export const CONTACT_TEXT = { maxLength: NAME.maxLength } as const satisfies TextRule

/** USPS codes of the states, the District of Columbia, territories and military mail. */
export const US_STATE_CODES = [
  ...['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY'],
  ...['LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND'],
  ...['OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC'],
  ...['AS', 'GU', 'MP', 'PR', 'VI', 'UM', 'FM', 'MH', 'PW', 'AA', 'AE', 'AP'],
] as readonly string[]
export const US_STATES: ReadonlySet<string> = new Set(US_STATE_CODES)

/** True for a real calendar date written YYYY-MM-DD (rejects 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!matches(value, DATE_PATTERN)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

const withinNameLength = (v: string) => textProblem(v, CONTACT_TEXT)
/** One message for a value of the wrong shape, whether too long or not matching. */
const shaped = (rule: TextRule, meaning: string) => (v: string) => (textProblem(v, rule) ? `must be ${meaning}` : undefined)

const checks: Record<ContactField, (v: string) => string | undefined> = {
  firstName: withinNameLength,
  lastName: withinNameLength,
  addressStreet: withinNameLength,
  addressCity: withinNameLength,
  phone: shaped(PHONE, PHONE_MEANING),
  email: shaped(EMAIL, EMAIL_MEANING),
  dateOfBirth: (v) => (isCalendarDate(v) ? undefined : 'must be a real date written YYYY-MM-DD'),
  addressState: (v) => (US_STATES.has(v) ? undefined : 'must be a two-letter US state or territory code such as NY'),
  addressZip: shaped(ZIP, ZIP_MEANING),
}

/**
 * Validates the contact keys of a free-form object (a need's `customFields`), leaving other keys alone.
 * Returns the contact details found and one error per bad field, with paths under `pathPrefix`.
 */
export function readContactDetails(
  source: Record<string, unknown>,
  pathPrefix: string,
): { details: ContactDetails; errors: FieldError[] } {
  const details: ContactDetails = {}
  const errors: FieldError[] = []
  for (const field of CONTACT_FIELDS) {
    const value = source[field]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string') {
      errors.push({ path: `${pathPrefix}/${field}`, message: 'must be a string' })
      continue
    }
    const trimmed = value.trim()
    if (trimmed === '') continue
    const problem = checks[field](trimmed)
    if (problem) errors.push({ path: `${pathPrefix}/${field}`, message: problem })
    else details[field] = trimmed
  }
  return { details, errors }
}

/** A change to contact fields: a string sets a field, `null` clears it, an absent key leaves it. */
export type ContactChanges = Partial<Record<ContactField, string | null>>

/**
 * Validates `changes` and applies them to `current`. Answers the new details and whether any field that
 * duplicate detection looks at changed; throws nothing, the caller raises `errors`.
 */
export function applyContactChanges(
  current: ContactDetails,
  changes: ContactChanges,
  pathPrefix = '',
): { details: ContactDetails; errors: FieldError[]; matchedFieldsChanged: boolean } {
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== null && v !== undefined))
  const { details: valid, errors } = readContactDetails(given, pathPrefix)
  const details: ContactDetails = { ...current }
  for (const field of CONTACT_FIELDS) {
    if (!(field in changes) || changes[field] === undefined) continue
    if (changes[field] === null || valid[field] === undefined) delete details[field]
    else details[field] = valid[field]
  }
  const matched = ['firstName', 'lastName', 'phone', 'email', 'dateOfBirth', 'addressStreet'] as const
  return { details, errors, matchedFieldsChanged: matched.some((f) => details[f] !== current[f]) }
}
