import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { countryCodeProblem, normalizePhone, PHONE_INPUT, phoneProblem } from '../../../src/domain/shared/phone'

describe('normalizePhone: a typed number in E.164', () => {
  test.each([
    ['503 555 0142', '+15035550142'],
    ['(503) 555-1000', '+15035551000'],
    ['503.555.0142', '+15035550142'],
    ['1 503 555 0142', '+15035550142'],
    ['+1 503 555 0142', '+15035550142'],
    ['+15035550142', '+15035550142'],
    ['+44 20 7946 0018', '+442079460018'],
  ])('US: %s is %s', (typed, kept) => {
    expect(normalizePhone(typed, 'US')).toBe(kept)
  })

  test.each([
    ['020 7946 0018', '+442079460018'],
    ['07700 900123', '+447700900123'],
    ['+1 (503) 555-0142', '+15035550142'],
  ])('GB: %s is %s', (typed, kept) => {
    expect(normalizePhone(typed, 'GB')).toBe(kept)
  })

  test.each([
    ['612 34 56 78', '+34612345678'],
    ['91 123 45 67', '+34911234567'],
  ])('ES: %s is %s', (typed, kept) => {
    expect(normalizePhone(typed, 'ES')).toBe(kept)
  })

  test('a national number is read in the organization’s country, not another', () => {
    expect(normalizePhone('07700 900123', 'US')).toBeUndefined()
    expect(normalizePhone('503 555 0142', 'ES')).toBeUndefined()
  })

  test.each([
    '555 0142',
    '12345',
    '+1 503 555 01425',
    '+0 503 555 0142',
    '1-800-FLOWERS',
    'call 503 555 0142',
    '503 555 0142 ext 5',
    '',
    '+',
  ])('refuses %p', (typed) => {
    expect(normalizePhone(typed, 'US')).toBeUndefined()
  })

  test(`refuses more than ${PHONE_INPUT.maxLength} characters, however they are spaced`, () => {
    expect(normalizePhone(`503${' '.repeat(PHONE_INPUT.maxLength)}5550142`, 'US')).toBeUndefined()
  })

  // Ten digits of a US number whose area code and exchange start 2 to 9: each is possible.
  const usNumber = fc.tuple(fc.integer({ min: 200, max: 999 }), fc.integer({ min: 200, max: 999 }), fc.integer({ min: 0, max: 9999 }))
  const separator = fc.constantFrom('', ' ', '-', '.')
  const countries = fc.constantFrom('US', 'GB', 'ES', 'FR', 'DE', 'MX', 'CA')

  test('a US number is the same one however it is written: bare, spaced, dashed, dotted, bracketed, with 1 or +1', () => {
    fc.assert(
      fc.property(
        usNumber,
        separator,
        fc.constantFrom('', '1 ', '+1 ', '+1'),
        fc.boolean(),
        ([area, exchange, line], sep, prefix, brackets) => {
          const subscriber = String(line).padStart(4, '0')
          const typed = `${prefix}${brackets ? `(${area}) ` : `${area}${sep}`}${exchange}${sep}${subscriber}`
          expect(normalizePhone(typed, 'US')).toBe(`+1${area}${exchange}${subscriber}`)
        },
      ),
    )
  })

  test('what it keeps it keeps as it is, in any country: a stored number is read back the same', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\+?[0-9 ().-]{1,24}$/), countries, countries, (typed, typedIn, readIn) => {
        const kept = normalizePhone(typed, typedIn)
        if (kept === undefined) return
        expect(kept).toMatch(/^\+[1-9][0-9]{1,14}$/)
        expect(normalizePhone(kept, readIn)).toBe(kept)
      }),
    )
  })

  test('a letter anywhere makes it no number', () => {
    fc.assert(
      fc.property(usNumber, fc.nat({ max: 12 }), fc.constantFrom(...'abcxyzABCXYZ'), ([area, exchange, line], at, letter) => {
        const digits = `${area}${exchange}${String(line).padStart(4, '0')}`
        const typed = digits.slice(0, at) + letter + digits.slice(at)
        expect(normalizePhone(typed, 'US')).toBeUndefined()
      }),
    )
  })
})

describe('phoneProblem: what a field of a phone says', () => {
  test('nothing of a number the rule reads, trimmed; the rule in plain words of one it does not; a non-string is no text', () => {
    expect(phoneProblem(' 503 555 0142 ', 'US')).toBeUndefined()
    expect(phoneProblem('07700 900123', 'US')).toBe('must be a phone number, e.g. +1 503 555 0142 or 503 555 0142')
    expect(phoneProblem(5035550142, 'US')).toBe('must be a string')
  })
})

describe('countryCodeProblem', () => {
  test.each(['US', 'GB', 'ES', 'MX'])('takes %s', (code) => {
    expect(countryCodeProblem(code)).toBeUndefined()
  })

  test.each(['us', 'USA', 'XX', 'ZZ', '', 1])('refuses %p', (code) => {
    expect(countryCodeProblem(code)).toBe('must be a two-letter country code (ISO 3166-1 alpha-2) such as US or GB')
  })
})
