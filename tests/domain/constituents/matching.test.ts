import { describe, expect, test } from 'bun:test'
import { duplicateWarning, matchKeysOf, normalizeText, sharedReasons } from '../../../src/domain/constituents/matching'

describe('normalizeText', () => {
  test('lower-cases, drops accents and apostrophes, turns other punctuation into single spaces', () => {
    expect(normalizeText("  O'Brien-Núñez ")).toBe('obrien nunez')
    expect(normalizeText('ZOË  St.-Jean')).toBe('zoe st jean')
    expect(normalizeText('D’Angelo')).toBe('dangelo')
  })

  test('keeps digits and letters of other scripts', () => {
    expect(normalizeText('12 Main St., Apt #4')).toBe('12 main st apt 4')
    expect(normalizeText('Łukasz Müller')).toBe('łukasz muller')
  })
})

describe('matchKeysOf', () => {
  test('keys the phone as written (E.164) and the email trimmed and lower-cased', () => {
    expect(matchKeysOf({ phone: '+15551234567', email: ' Ana.Lopez@Example.ORG ' })).toEqual({
      phone: '+15551234567',
      email: 'ana.lopez@example.org',
    })
  })

  test('keys name and date of birth only when first name, last name and date of birth are all there', () => {
    expect(matchKeysOf({ firstName: 'Ana', lastName: 'López', dateOfBirth: '1980-05-01' }).nameAndBirth).toBe('ana|lopez|1980-05-01')
    expect(matchKeysOf({ firstName: 'Ana', dateOfBirth: '1980-05-01' }).nameAndBirth).toBeUndefined()
    expect(matchKeysOf({ lastName: 'López', dateOfBirth: '1980-05-01' }).nameAndBirth).toBeUndefined()
    expect(matchKeysOf({ firstName: 'Ana', lastName: 'López' }).nameAndBirth).toBeUndefined()
  })

  test('keys last name and street only when both are there', () => {
    expect(matchKeysOf({ lastName: 'López', addressStreet: '12 Main St.' }).lastNameAndStreet).toBe('lopez|12 main st')
    expect(matchKeysOf({ addressStreet: '12 Main St.' }).lastNameAndStreet).toBeUndefined()
    expect(matchKeysOf({ lastName: 'López' }).lastNameAndStreet).toBeUndefined()
  })

  test('the same person written with other accents, case and punctuation has the same keys', () => {
    const written = matchKeysOf({ firstName: 'José', lastName: "O'Brien-Núñez", dateOfBirth: '1980-05-01', addressStreet: '12 Main St.' })
    const typed = matchKeysOf({ firstName: 'JOSE', lastName: 'obrien nunez', dateOfBirth: '1980-05-01', addressStreet: '12  main st' })
    expect(typed).toEqual(written)
  })

  test('a person with no contact fields, or only names made of punctuation, has no keys', () => {
    expect(matchKeysOf({})).toEqual({})
    expect(matchKeysOf({ firstName: '--', lastName: '...', dateOfBirth: '1980-05-01', addressStreet: '#' })).toEqual({})
  })

  test('city, state and ZIP are not keys', () => {
    expect(matchKeysOf({ addressCity: 'Springfield', addressState: 'IL', addressZip: '62701' })).toEqual({})
  })
})

describe('sharedReasons', () => {
  test('names every key the two share, in a fixed order', () => {
    const a = matchKeysOf({ phone: '+15551234567', email: 'ana@example.org', lastName: 'Lopez', addressStreet: '12 Main St' })
    const b = matchKeysOf({ phone: '+15551234567', email: 'ANA@example.org', lastName: 'López', addressStreet: '12 main st.' })
    expect(sharedReasons(a, b)).toEqual(['same phone', 'same email', 'same last name and address'])
  })

  test('finds the same name and date of birth', () => {
    const a = matchKeysOf({ firstName: 'Ana', lastName: 'Lopez', dateOfBirth: '1980-05-01' })
    const b = matchKeysOf({ firstName: 'ANA', lastName: 'López', dateOfBirth: '1980-05-01', phone: '+15550000000' })
    expect(sharedReasons(a, b)).toEqual(['same name and date of birth'])
  })

  test('shares nothing with different values, nor where both lack a key', () => {
    expect(sharedReasons(matchKeysOf({ phone: '+15551234567' }), matchKeysOf({ phone: '+15551234568' }))).toEqual([])
    expect(sharedReasons(matchKeysOf({ firstName: 'Ana' }), matchKeysOf({ firstName: 'Ana' }))).toEqual([])
    expect(sharedReasons({}, {})).toEqual([])
  })

  test('the same name with another date of birth is not a match', () => {
    const a = matchKeysOf({ firstName: 'Ana', lastName: 'Lopez', dateOfBirth: '1980-05-01' })
    const b = matchKeysOf({ firstName: 'Ana', lastName: 'Lopez', dateOfBirth: '1981-05-01' })
    expect(sharedReasons(a, b)).toEqual([])
  })
})

describe('duplicateWarning', () => {
  test('is absent without candidates', () => {
    expect(duplicateWarning([])).toBeUndefined()
  })

  test('speaks of one constituent in the singular', () => {
    expect(duplicateWarning([{ reasons: ['same phone'] }])).toBe('Possible duplicate of 1 constituent: same phone')
  })

  test('counts several constituents in the plural, naming each reason once', () => {
    expect(duplicateWarning([{ reasons: ['same phone'] }, { reasons: ['same phone'] }])).toBe(
      'Possible duplicate of 2 constituents: same phone',
    )
    expect(
      duplicateWarning([
        { reasons: ['same phone', 'same email'] },
        { reasons: ['same email'] },
        { reasons: ['same last name and address'] },
      ]),
    ).toBe('Possible duplicate of 3 constituents: same phone, same email, same last name and address')
  })
})
