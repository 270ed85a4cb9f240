import { describe, expect, test } from 'bun:test'
import {
  applyContactChanges,
  isCalendarDate,
  readContactDetails,
  US_STATE_CODES,
  type ContactDetails,
} from '../../../src/domain/constituents/contact'

const errorPathsOf = (source: Record<string, unknown>) => readContactDetails(source, '/customFields', 'US').errors.map((e) => e.path)
const accepts = (field: string, value: string) => {
  const { details, errors } = readContactDetails({ [field]: value }, '/customFields', 'US')
  return errors.length === 0 && (details as Record<string, string>)[field] === value
}

describe('contact details in customFields', () => {
  describe('phone (kept in E.164)', () => {
    test.each(['+15551234567', '+442071838750'])('accepts %s', (phone) => {
      expect(accepts('phone', phone)).toBe(true)
    })

    test.each(['555 0142', '+1 555 123 45678', '+05551234567', '+1234567890123456', '+1555abc4567', '+', '503 555 0142 ext 5'])(
      'refuses %s',
      (phone) => {
        expect(errorPathsOf({ phone })).toEqual(['/customFields/phone'])
      },
    )
  })

  describe('addressState', () => {
    test('accepts the 50 states and DC', () => {
      const states =
        'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(
          ' ',
        )
      expect(states).toHaveLength(51)
      expect(states.filter((state) => !accepts('addressState', state))).toEqual([])
    })

    test('accepts the territories and military mail codes', () => {
      const territories = ['PR', 'GU', 'VI', 'AS', 'MP', 'UM', 'FM', 'MH', 'PW', 'AA', 'AE', 'AP']
      expect(territories.filter((code) => !accepts('addressState', code))).toEqual([])
      expect(territories.every((code) => US_STATE_CODES.includes(code))).toBe(true)
    })

    test.each(['XX', 'New York', 'N', 'NYC', 'ZZ'])('refuses %s', (addressState) => {
      expect(errorPathsOf({ addressState })).toEqual(['/customFields/addressState'])
    })
  })

  describe('addressZip', () => {
    test('accepts five digits, leading zeros included', () => {
      expect(accepts('addressZip', '02139')).toBe(true)
    })

    test.each(['1234', '123456', '12345-6789', 'ABCDE', '1234a'])('refuses %s', (addressZip) => {
      expect(errorPathsOf({ addressZip })).toEqual(['/customFields/addressZip'])
    })
  })

  describe('dateOfBirth', () => {
    test.each(['2024-02-29', '2000-02-29', '1950-12-31', '2023-01-01'])('accepts the real date %s', (dateOfBirth) => {
      expect(accepts('dateOfBirth', dateOfBirth)).toBe(true)
    })

    test.each([
      '2023-02-29',
      '1900-02-29',
      '2023-04-31',
      '2023-13-01',
      '2023-00-10',
      '2023-01-32',
      '2023-1-5',
      '05/01/2023',
      '2023-01-01T00:00:00Z',
    ])('refuses %s', (dateOfBirth) => {
      expect(errorPathsOf({ dateOfBirth })).toEqual(['/customFields/dateOfBirth'])
    })

    test('isCalendarDate tells real dates from well-shaped impossible ones', () => {
      expect(isCalendarDate('2024-02-29')).toBe(true)
      expect(isCalendarDate('2023-02-29')).toBe(false)
      expect(isCalendarDate('2023-02-30')).toBe(false)
    })
  })

  describe('email', () => {
    test.each(['ana@example.org', 'ana.lopez+intake@mail.example.co'])('accepts %s', (email) => {
      expect(accepts('email', email)).toBe(true)
    })

    test.each(['ana', 'ana@example', 'ana lopez@example.org', 'ana@@example.org', '@example.org', 'ana@'])('refuses %s', (email) => {
      expect(errorPathsOf({ email })).toEqual(['/customFields/email'])
    })

    test('refuses an address longer than 254 characters', () => {
      expect(errorPathsOf({ email: `${'a'.repeat(243)}@example.org` })).toEqual(['/customFields/email'])
      expect(accepts('email', `${'a'.repeat(242)}@example.org`)).toBe(true)
    })
  })

  describe('names and address lines', () => {
    test('accept up to 200 characters and refuse more', () => {
      for (const field of ['firstName', 'lastName', 'addressStreet', 'addressCity']) {
        expect(accepts(field, 'a'.repeat(200))).toBe(true)
        expect(errorPathsOf({ [field]: 'a'.repeat(201) })).toEqual([`/customFields/${field}`])
      }
    })
  })

  test('refuses a contact field that is not a string', () => {
    expect(readContactDetails({ phone: 15551234567, firstName: ['Ana'] }, '/customFields', 'US').errors).toEqual([
      { path: '/customFields/firstName', message: 'must be a string' },
      { path: '/customFields/phone', message: 'must be a string' },
    ])
  })

  test('trims values and answers the valid ones', () => {
    expect(readContactDetails({ firstName: '  Ana ', phone: ' +15551234567 ' }, '/x', 'US').details).toEqual({
      firstName: 'Ana',
      phone: '+15551234567',
    })
  })

  test('skips empty, blank, null and absent contact fields', () => {
    expect(readContactDetails({ firstName: '', lastName: '   ', phone: null }, '/customFields', 'US')).toEqual({ details: {}, errors: [] })
  })

  test('leaves keys that are not contact fields alone', () => {
    expect(readContactDetails({ description: 12, shoeSize: 'x', householdSize: 4 }, '/customFields', 'US')).toEqual({
      details: {},
      errors: [],
    })
  })

  test('reports every bad field at once, under the given path prefix', () => {
    expect(
      errorPathsOf({ phone: '555', email: 'nope', addressState: 'XX', addressZip: '1', dateOfBirth: '2023-02-29', firstName: 'Ana' }),
    ).toEqual([
      '/customFields/phone',
      '/customFields/email',
      '/customFields/dateOfBirth',
      '/customFields/addressState',
      '/customFields/addressZip',
    ])
  })
})

describe('applyContactChanges', () => {
  const current: ContactDetails = {
    firstName: 'Ana',
    lastName: 'Lopez',
    phone: '+15551234567',
    email: 'ana@example.org',
    addressCity: 'Springfield',
    addressState: 'IL',
  }

  test('a string sets the field, trimmed; absent and undefined keys leave theirs untouched', () => {
    const { details, errors } = applyContactChanges(current, { phone: ' +15557654321 ', addressZip: '62701', email: undefined }, 'US')
    expect(errors).toEqual([])
    expect(details).toEqual({ ...current, phone: '+15557654321', addressZip: '62701' })
  })

  test('null clears the field', () => {
    const { details, errors } = applyContactChanges(current, { email: null, addressCity: null }, 'US')
    expect(errors).toEqual([])
    expect(details).toEqual({ firstName: 'Ana', lastName: 'Lopez', phone: '+15551234567', addressState: 'IL' })
  })

  test('an empty or blank string clears the field like null', () => {
    expect(applyContactChanges(current, { firstName: '', addressState: '  ' }, 'US')).toEqual({
      details: { lastName: 'Lopez', phone: '+15551234567', email: 'ana@example.org', addressCity: 'Springfield' },
      errors: [],
      matchedFieldsChanged: true,
    })
  })

  test('no changes answer the same details and no error', () => {
    expect(applyContactChanges(current, {}, 'US')).toEqual({ details: current, errors: [], matchedFieldsChanged: false })
  })

  test('reports every invalid value under the path prefix', () => {
    const { errors } = applyContactChanges(
      current,
      { phone: '555-1234', addressState: 'ZZ', addressZip: '1234', dateOfBirth: '2023-02-29', email: 'nope' },
      'US',
      '/fieldOverrides',
    )
    expect(errors.map((e) => e.path).sort()).toEqual([
      '/fieldOverrides/addressState',
      '/fieldOverrides/addressZip',
      '/fieldOverrides/dateOfBirth',
      '/fieldOverrides/email',
      '/fieldOverrides/phone',
    ])
  })

  test('paths have no prefix by default, as for a constituent body', () => {
    expect(applyContactChanges(current, { phone: '555 0142' }, 'US').errors).toEqual([
      { path: '/phone', message: 'must be a phone number, e.g. +1 503 555 0142 or 503 555 0142' },
    ])
  })

  test('refuses a value that is not a string', () => {
    expect(applyContactChanges(current, { phone: 15551234567 as unknown as string }, 'US').errors).toEqual([
      { path: '/phone', message: 'must be a string' },
    ])
  })

  test('does not alter the details it is given', () => {
    const before = { ...current }
    applyContactChanges(current, { phone: null, firstName: 'Ann' }, 'US')
    expect(current).toEqual(before)
  })

  describe('matchedFieldsChanged', () => {
    test.each([
      ['firstName', 'Ann'],
      ['lastName', 'López'],
      ['phone', '+15557654321'],
      ['email', 'ana@example.com'],
      ['dateOfBirth', '1980-05-01'],
      ['addressStreet', '12 Main St'],
    ] as const)('is true when %s changes', (field, value) => {
      expect(applyContactChanges(current, { [field]: value }, 'US').matchedFieldsChanged).toBe(true)
    })

    test('is true when a field duplicate detection looks at is cleared', () => {
      expect(applyContactChanges(current, { phone: null }, 'US').matchedFieldsChanged).toBe(true)
    })

    test('is false when only city, state or ZIP change', () => {
      expect(
        applyContactChanges(current, { addressCity: 'Chicago', addressState: 'NY', addressZip: '10001' }, 'US').matchedFieldsChanged,
      ).toBe(false)
    })

    test('is false when a field is set to the value it has, or an absent field is cleared', () => {
      expect(
        applyContactChanges(current, { phone: '+15551234567', firstName: ' Ana ', dateOfBirth: null }, 'US').matchedFieldsChanged,
      ).toBe(false)
    })
  })
})
