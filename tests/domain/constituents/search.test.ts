import { describe, expect, test } from 'bun:test'
import { nameTermsOf, parseConstituentQuery, phoneTermsOf, termsMatch } from '../../../src/domain/constituents/search'

describe('parseConstituentQuery', () => {
  test('an absent, empty or blank query lists everyone', () => {
    for (const query of [undefined, '', '   ']) expect(parseConstituentQuery(query)).toEqual({ kind: 'all' })
  })

  test('a query with an @ is an email, trimmed and lower-cased', () => {
    expect(parseConstituentQuery('  Ana.Lopez@Example.ORG ')).toEqual({ kind: 'email', email: 'ana.lopez@example.org' })
  })

  test('a query of digits and phone punctuation with at least 3 digits is phone digits', () => {
    expect(parseConstituentQuery('+1 (555) 123-45')).toEqual({ kind: 'phone', digits: '155512345' })
    expect(parseConstituentQuery('555.123.4567')).toEqual({ kind: 'phone', digits: '5551234567' })
    expect(parseConstituentQuery('555')).toEqual({ kind: 'phone', digits: '555' })
  })

  test('fewer than 3 digits are searched as a word', () => {
    expect(parseConstituentQuery('55')).toEqual({ kind: 'words', words: ['55'] })
    expect(parseConstituentQuery('(5-5)')).toEqual({ kind: 'words', words: ['5', '5'] })
  })

  test('anything else is words, normalized like names', () => {
    expect(parseConstituentQuery('  José   GARCÍA ')).toEqual({ kind: 'words', words: ['jose', 'garcia'] })
    expect(parseConstituentQuery("O'Brien")).toEqual({ kind: 'words', words: ['obrien'] })
  })

  test('digits mixed with letters are words, not a phone', () => {
    expect(parseConstituentQuery('Ana 555')).toEqual({ kind: 'words', words: ['ana', '555'] })
  })

  test('a query of punctuation alone lists everyone', () => {
    expect(parseConstituentQuery('?!')).toEqual({ kind: 'all' })
  })
})

describe('nameTermsOf', () => {
  test('indexes the normalized words of both names', () => {
    expect(nameTermsOf({ firstName: 'Mary-Ann', lastName: 'Núñez' })).toEqual(['mary', 'ann', 'nunez'])
  })

  test('indexes neither phone, email nor address', () => {
    expect(
      nameTermsOf({ phone: '+15551234567', email: 'ana@example.org', addressStreet: '12 Main St', addressCity: 'Springfield' }),
    ).toEqual([])
  })
})

describe('phoneTermsOf', () => {
  test('indexes every ending of the digits down to 3, so any part of the number begins a term', () => {
    expect(phoneTermsOf({ phone: '+15035550112' })).toEqual([
      '15035550112',
      '5035550112',
      '035550112',
      '35550112',
      '5550112',
      '550112',
      '50112',
      '0112',
      '112',
    ])
    expect(phoneTermsOf({ phone: '+1555' })).toEqual(['1555', '555'])
  })

  test('indexes a number of 3 digits or fewer whole, and no phone as nothing', () => {
    expect(phoneTermsOf({ phone: '+12' })).toEqual(['12'])
    expect(phoneTermsOf({ firstName: 'Ana' })).toEqual([])
  })
})

describe('termsMatch', () => {
  const names = nameTermsOf({ firstName: 'José', lastName: 'García López' })
  const phone = phoneTermsOf({ phone: '+15551234567' })

  test('matches when every prefix begins one of the terms, in any order', () => {
    expect(termsMatch(names, ['jo'])).toBe(true)
    expect(termsMatch(names, ['lop', 'gar'])).toBe(true)
  })

  test('matches any part of the phone digits, the country code included or not', () => {
    expect(termsMatch(phone, ['1555'])).toBe(true)
    expect(termsMatch(phone, ['555123'])).toBe(true)
    expect(termsMatch(phone, ['1234567'])).toBe(true)
    expect(termsMatch(phone, ['5123'])).toBe(true)
    expect(termsMatch(phone, ['5554'])).toBe(false)
  })

  test('does not match the middle of a name', () => {
    expect(termsMatch(names, ['ose'])).toBe(false)
  })

  test('fails when any one prefix matches nothing', () => {
    expect(termsMatch(names, ['jose', 'smith'])).toBe(false)
  })

  test('no prefixes match every record', () => {
    expect(termsMatch(names, [])).toBe(true)
  })
})
