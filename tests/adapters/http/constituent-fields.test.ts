import { describe, expect, test } from 'bun:test'
import type { TNull, TUnion } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { UnwrapSchema } from 'elysia'
import {
  ConstituentSchema,
  contactSchemas,
  CreateConstituentBody,
  UpdateConstituentBody,
} from '../../../src/adapters/http/constituents.schemas'
import { CONSTITUENT_COLUMNS } from '../../../src/adapters/http/exports'
import { aContact, anotherContact } from '../../support/builders'
import type { Actor } from '../../../src/domain/auth/actor'
import {
  applyContactChanges,
  CONTACT,
  CONTACT_FIELDS,
  fieldValue,
  readContactDetails,
  type DetailsOf,
  type FieldReaders,
} from '../../../src/domain/constituents/contact'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import { hiddenContactFields } from '../../../src/domain/constituents/redaction'

// Every constituent field is described once (CONTACT): what the API accepts and answers, who may read it,
// what duplicate detection reads and what an export holds follow from that one description.

const actor = (profiles: Actor['profiles']): Actor => ({
  memberId: 'd7a5c3e4-9f6b-4a8c-8dbe-2f3a4b5c6d7e',
  organizationId: '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d',
  role: 'staff',
  profiles,
})
const readBy = (...readers: FieldReaders[]) => CONTACT_FIELDS.filter((field) => readers.includes(CONTACT[field].readers))
const propertiesOf = (schema: { properties: object }) => Object.keys(schema.properties)

/** Two people who differ in every field, each field valid. */
const one = aContact()
const other = anotherContact()

describe('a constituent field described once', () => {
  test('the API answers, takes and clears exactly the described fields, in their order', () => {
    // erasedAt is the record's own, beside the fields (docs/privacy.md).
    expect(propertiesOf(ConstituentSchema)).toEqual(['id', 'householdId', ...CONTACT_FIELDS, 'erasedAt'])
    expect(propertiesOf(CreateConstituentBody).filter((name) => name !== 'householdId')).toEqual([...CONTACT_FIELDS])
    expect(propertiesOf(UpdateConstituentBody)).toEqual([...CONTACT_FIELDS])
  })

  test('an export has one column per described field, between the ids and the times', () => {
    expect(CONSTITUENT_COLUMNS.map((column) => column.header)).toEqual(['id', 'householdId', ...CONTACT_FIELDS, 'createdAt', 'updatedAt'])
  })

  test('who may read a field is its description: contact readers see contact fields, others only what everyone reads', () => {
    expect(readBy('everyone').length).toBeGreaterThan(0)
    expect([...hiddenContactFields(actor([]))]).toEqual(readBy('contact', 'personal'))
    expect([...hiddenContactFields(actor(['email_phone_communicator']))]).toEqual(readBy('personal'))
    expect(hiddenContactFields(actor(['pii_reader']))).toEqual([])
  })

  test('every described field is checked, wherever it arrives from', () => {
    const tooLong = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, 'x'.repeat(300)]))
    const { details, errors } = readContactDetails(tooLong, '/customFields', 'US')
    expect(details).toEqual({})
    expect(errors.map((error) => error.path)).toEqual(CONTACT_FIELDS.map((field) => `/customFields/${field}`))
    expect(readContactDetails(one, '', 'US').errors).toEqual([])
  })

  test.each(CONTACT_FIELDS)('duplicate detection reads %s exactly when it is described as matched', (field) => {
    const { matched } = CONTACT[field]
    const changed = { ...one, [field]: other[field] }
    expect(JSON.stringify(matchKeysOf(changed)) !== JSON.stringify(matchKeysOf(one))).toBe(matched)
    expect(applyContactChanges(one, { [field]: other[field] }, 'US').matchedFieldsChanged).toBe(matched)
  })
})

describe('a field with a list of values', () => {
  const HOUSING = ['housed', 'sheltered', 'unsheltered'] as const
  const described = {
    nickname: { readers: 'everyone', matched: false, rule: { maxLength: 20 } },
    housing: {
      readers: 'personal',
      matched: false,
      values: HOUSING,
      meaning: 'housed, sheltered or unsheltered',
      description: 'Where the person sleeps',
    },
  } as const
  const schemas = contactSchemas(described)

  test('its value is one of them, in the domain type and the schema type alike', () => {
    const details: DetailsOf<typeof described> = { nickname: 'Ana', housing: 'sheltered' }
    // As a route's body reads it (Elysia's own static types): the value, or null to clear it.
    const fromSchema: UnwrapSchema<typeof schemas.housing> = 'unsheltered'
    const update: Array<UnwrapSchema<TUnion<[typeof schemas.housing, TNull]>>> = ['housed', null]
    // @ts-expect-error: a value outside the list is no value of the field
    const wrong: DetailsOf<typeof described> = { housing: 'somewhere' }
    expect([details.housing, fromSchema, ...update]).toEqual(['sheltered', 'unsheltered', 'housed', null])
    expect(Value.Check(schemas.housing, wrong.housing)).toBe(false)
  })

  test('its schema lists the values and takes no other', () => {
    expect(HOUSING.filter((value) => !Value.Check(schemas.housing, value))).toEqual([])
    expect(Value.Check(schemas.housing, 'somewhere')).toBe(false)
    expect(schemas.housing.description).toBe('Where the person sleeps')
    expect(Value.Check(schemas.nickname, 'x'.repeat(21))).toBe(false)
  })

  test('the domain refuses another value in the words of its description', () => {
    expect(HOUSING.map((value) => fieldValue(described.housing, value, 'US'))).toEqual(HOUSING.map((value) => ({ value })))
    expect(fieldValue(described.housing, 'somewhere', 'US')).toEqual({ problem: 'must be housed, sheltered or unsheltered' })
    expect(fieldValue(described.nickname, 'x'.repeat(21), 'US')).toEqual({ problem: 'must be at most 20 characters' })
  })
})
