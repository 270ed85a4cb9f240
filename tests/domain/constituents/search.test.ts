import { describe, expect, test } from 'bun:test'
import { parseConstituentQuery, searchTermsOf, termsMatch } from '../../../src/domain/constituents/search'

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

describe('searchTermsOf', () => {
  test('indexes the normalized words of both names', () => {
    expect(searchTermsOf({ firstName: 'Mary-Ann', lastName: 'Núñez' })).toEqual(['mary', 'ann', 'nunez'])
  })

  test('indexes a +1 number with and without its country code', () => {
    expect(searchTermsOf({ phone: '+15551234567' })).toEqual(['15551234567', '5551234567'])
  })

  test('indexes other numbers once, whole', () => {
    expect(searchTermsOf({ phone: '+442071838750' })).toEqual(['442071838750'])
    expect(searchTermsOf({ phone: '+1555' })).toEqual(['1555'])
  })

  test('indexes neither email nor address', () => {
    expect(searchTermsOf({ email: 'ana@example.org', addressStreet: '12 Main St', addressCity: 'Springfield' })).toEqual([])
  })
})

describe('termsMatch', () => {
  const terms = searchTermsOf({ firstName: 'José', lastName: 'García López', phone: '+15551234567' })

  test('matches when every prefix begins one of the terms, in any order', () => {
    expect(termsMatch(terms, ['jo'])).toBe(true)
    expect(termsMatch(terms, ['lop', 'gar'])).toBe(true)
  })

  test('matches phone digits with or without the country code', () => {
    expect(termsMatch(terms, ['555123'])).toBe(true)
    expect(termsMatch(terms, ['1555'])).toBe(true)
  })

  test('does not match the middle of a term', () => {
    expect(termsMatch(terms, ['ose'])).toBe(false)
    expect(termsMatch(terms, ['1234567'])).toBe(false)
  })

  test('fails when any one prefix matches nothing', () => {
    expect(termsMatch(terms, ['jose', 'smith'])).toBe(false)
  })

  test('no prefixes match every record', () => {
    expect(termsMatch(terms, [])).toBe(true)
  })
})
