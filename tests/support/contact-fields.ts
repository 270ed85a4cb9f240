import type { ContactField } from '../../src/domain/constituents/contact'

// The constituent fields as docs/constituents.md and docs/api/access.md "Permissions" describe them, written out by
// hand: who may read each, and two valid values that differ. It is the tests' one list of fields: the redaction checks, the export's
// columns and the full contacts are derived from it, never from CONTACT, so the code is held against the documentation.
// A new field is one line here: until it has one, `tsc` fails on this list ("Property '<field>' is missing").
type Readers = 'everyone' | 'contact' | 'personal'

export const DOCUMENTED_FIELDS = {
  firstName: { readers: 'everyone', value: 'Ana', other: 'Bo' },
  lastName: { readers: 'everyone', value: 'Lopez', other: 'Nguyen' },
  phone: { readers: 'contact', value: '+15551234567', other: '+15557654321' },
  email: { readers: 'contact', value: 'ana@example.org', other: 'bo@example.org' },
  dateOfBirth: { readers: 'personal', value: '1980-05-01', other: '1990-12-31' },
  addressStreet: { readers: 'personal', value: '12 Main St', other: '4 Elm Ave' },
  addressCity: { readers: 'personal', value: 'Springfield', other: 'Chicago' },
  addressState: { readers: 'personal', value: 'IL', other: 'NY' },
  addressZip: { readers: 'personal', value: '62701', other: '10001' },
} as const satisfies Record<ContactField, { readers: Readers; value: string; other: string }>

export type DocumentedField = keyof typeof DOCUMENTED_FIELDS
/** Every field, in the documented order (the API's and the export's). */
export const ALL_FIELDS = Object.keys(DOCUMENTED_FIELDS) as DocumentedField[]

const WIDTH: Record<Readers, Readers[]> = {
  everyone: ['everyone'],
  contact: ['everyone', 'contact'],
  personal: ['everyone', 'contact', 'personal'],
}
/** The fields a caller sees who may read `readers` fields: names only, names and contact details, or every field. */
export const fieldsSeenBy = (readers: Readers): DocumentedField[] =>
  ALL_FIELDS.filter((field) => WIDTH[readers].includes(DOCUMENTED_FIELDS[field].readers))

/** The fields only some callers see: every field but the names. */
export const HIDEABLE_FIELDS = ALL_FIELDS.filter((field) => DOCUMENTED_FIELDS[field].readers !== 'everyone')
/** The fields only personal-detail readers see (the address and the birth date). */
export const PERSONAL_FIELDS = ALL_FIELDS.filter((field) => DOCUMENTED_FIELDS[field].readers === 'personal')
