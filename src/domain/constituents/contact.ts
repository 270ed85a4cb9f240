import type { FieldError } from '../errors'
import { EMAIL, EMAIL_MEANING, matches, NAME, textProblem, type TextRule } from '../shared/fields'
import { normalizePhone, PHONE_INPUT, PHONE_INPUT_MEANING } from '../shared/phone'

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

/** True for a real calendar date written YYYY-MM-DD (rejects 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!matches(value, DATE_PATTERN)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/**
 * Who may read a field (docs/api/access.md "Permissions", redaction.ts): whoever reads constituents, those who may
 * read contact details (`constituents:read-contact` or `constituents:read-pii`), or only those who may read
 * personal details (`constituents:read-pii`).
 */
export type FieldReaders = 'everyone' | 'contact' | 'personal'

/** One field of a constituent: its rule, its values, who may read it, whether duplicate detection reads it. */
export type ContactFieldDescriptor = TextFieldDescriptor | ChoiceFieldDescriptor

interface CommonDescriptor {
  readers: FieldReaders
  /** Whether a duplicate detection key is made of it (matching.ts): a change to it runs detection again. */
  matched: boolean
  /** What the API's documentation says of it. */
  description?: string
}

/** Text under a rule; `meaning` says what the rule accepts, in the words of every error about it. */
export interface TextFieldDescriptor extends CommonDescriptor {
  rule: TextRule
  meaning?: string
  /** A further test the pattern cannot make (a real calendar date), failing with the same words. */
  valid?: (value: string) => boolean
  /** The value as kept, read in the organization's country (a phone in E.164), or undefined when it is none. */
  normalize?: (value: string, country: string) => string | undefined
  /** The OpenAPI format of the value. */
  format?: 'date'
}

/** One of a fixed list of values: the field's type is their union. */
export interface ChoiceFieldDescriptor<V extends string = string> extends CommonDescriptor {
  values: readonly V[]
  meaning: string
}

/** A field's value: one of its values if it has a list, otherwise text. */
export type ValueOf<D> = D extends { values: ReadonlyArray<infer V extends string> } ? V : string
/** The values of every field of `descriptors`, each optional. */
export type DetailsOf<Ds> = { -readonly [K in keyof Ds]?: ValueOf<Ds[K]> }

const NAMED = { readers: 'everyone', matched: true, rule: CONTACT_TEXT } as const
const ADDRESS_LINE = { readers: 'personal', matched: false, rule: CONTACT_TEXT } as const

/**
 * Every constituent field, described once; the HTTP schemas, the checks below, who may read it, duplicate
 * detection's inputs, the database rows and the CSV columns are all derived from it. A new field is one entry
 * here (its values if it takes only some), its column in both database schemas, and its docs.
 * The order is the API's and the export's column order.
 */
export const CONTACT = {
  firstName: NAMED,
  lastName: NAMED,
  phone: {
    readers: 'contact',
    matched: true,
    rule: PHONE_INPUT,
    meaning: PHONE_INPUT_MEANING,
    normalize: normalizePhone,
    description:
      "Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry",
  },
  email: { readers: 'contact', matched: true, rule: EMAIL, meaning: EMAIL_MEANING },
  dateOfBirth: {
    readers: 'personal',
    matched: true,
    rule: { pattern: DATE_PATTERN, maxLength: 10 },
    meaning: 'a real date written YYYY-MM-DD',
    valid: isCalendarDate,
    format: 'date',
    description: 'YYYY-MM-DD, a real date',
  },
  addressStreet: { ...ADDRESS_LINE, matched: true },
  addressCity: ADDRESS_LINE,
  addressState: {
    readers: 'personal',
    matched: false,
    rule: { pattern: `^(${US_STATE_CODES.join('|')})$`, maxLength: 2 },
    meaning: 'a two-letter US state or territory code such as NY',
    description: 'Two-letter US state or territory code',
  },
  addressZip: { readers: 'personal', matched: false, rule: ZIP, meaning: ZIP_MEANING, description: 'Five-digit ZIP code' },
} as const satisfies Record<string, ContactFieldDescriptor>

export type ContactField = keyof typeof CONTACT
export type ContactDetails = DetailsOf<typeof CONTACT>

/** The field names of `descriptors`, in their order. */
export function fieldsOf<Ds extends Record<string, ContactFieldDescriptor>>(descriptors: Ds): Array<keyof Ds & string> {
  return Object.keys(descriptors)
}

/**
 * A field's (trimmed, non-empty) value as kept, read in the organization's `country`, or the problem with it.
 */
export function fieldValue(descriptor: ContactFieldDescriptor, value: string, country: string): { value: string } | { problem: string } {
  if ('values' in descriptor) return descriptor.values.includes(value) ? { value } : { problem: `must be ${descriptor.meaning}` }
  const problem = textProblem(value, descriptor.rule)
  if (problem) return { problem: descriptor.meaning === undefined ? problem : `must be ${descriptor.meaning}` }
  const kept = descriptor.normalize ? descriptor.normalize(value, country) : value
  return kept === undefined || (descriptor.valid && !descriptor.valid(kept))
    ? { problem: `must be ${descriptor.meaning}` }
    : { value: kept }
}

export const CONTACT_FIELDS = fieldsOf(CONTACT)
/** Said of a new constituent with no field given. */
export const NO_CONTACT_GIVEN = 'Give at least one field: a record with nothing in it serves no one'
/** The fields duplicate detection reads. */
export const MATCHED_FIELDS = CONTACT_FIELDS.filter((field) => CONTACT[field].matched)

/**
 * Validates the contact keys of a free-form object (a need's `customFields`), leaving other keys alone.
 * Returns the contact details found, as kept (a phone in E.164, a national number read as one of `country`'s),
 * and one error per bad field, with paths under `pathPrefix`.
 */
export function readContactDetails(
  source: Record<string, unknown>,
  pathPrefix: string,
  country: string,
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
    const read = fieldValue(CONTACT[field], trimmed, country)
    if ('problem' in read) errors.push({ path: `${pathPrefix}/${field}`, message: read.problem })
    // Checked against the field's rule or values just above: the value is of its type.
    else details[field] = read.value as never
  }
  return { details, errors }
}

/** A change to contact fields: a string sets a field, `null` clears it, an absent key leaves it. */
export type ContactChanges = { [K in ContactField]?: ContactDetails[K] | null }

/**
 * Validates `changes` and applies them to `current`. Answers the new details and whether any field that
 * duplicate detection looks at changed; throws nothing, the caller raises `errors`.
 */
export function applyContactChanges(
  current: ContactDetails,
  changes: ContactChanges,
  country: string,
  pathPrefix = '',
): { details: ContactDetails; errors: FieldError[]; matchedFieldsChanged: boolean } {
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== null && v !== undefined))
  const { details: valid, errors } = readContactDetails(given, pathPrefix, country)
  const details: ContactDetails = { ...current }
  for (const field of CONTACT_FIELDS) {
    if (!(field in changes) || changes[field] === undefined) continue
    if (changes[field] === null || valid[field] === undefined) delete details[field]
    else details[field] = valid[field] as never
  }
  return { details, errors, matchedFieldsChanged: MATCHED_FIELDS.some((f) => details[f] !== current[f]) }
}

/** A need's `customFields` with its phone as kept (E.164) when it is a valid one; every other key as given. */
export function withKeptPhone<T extends Record<string, unknown>>(customFields: T, country: string): T {
  const phone = readContactDetails({ phone: customFields.phone }, '', country).details.phone
  return phone === undefined ? customFields : { ...customFields, phone }
}
