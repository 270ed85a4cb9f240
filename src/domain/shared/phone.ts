import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import type { TextRule } from './fields'

// docs/api/needs.md "Phone numbers": the one rule of a phone a person types, for every entry point.

/** What a person may type: room for the spaces, brackets and dashes people write a number with. */
export const PHONE_INPUT = { maxLength: 32 } as const satisfies TextRule
export const PHONE_INPUT_MEANING = 'a phone number, e.g. +1 503 555 0142 or 503 555 0142'

/** ISO 3166-1 alpha-2, as `US`: the country whose national numbers an organization's people type. */
export const COUNTRY_CODE = { pattern: '^[A-Z]{2}$', maxLength: 2 } as const satisfies TextRule
export const COUNTRY_CODE_MEANING = 'a two-letter country code (ISO 3166-1 alpha-2) such as US or GB'
export const DEFAULT_COUNTRY = 'US'

/** Digits, a leading plus and the separators people write: anything else (letters, an extension) is no number. */
const TYPED_NUMBER = /^\+?[0-9 ().-]+$/

/** Why `value` is not a country whose phone numbers are known, or undefined. */
export function countryCodeProblem(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isSupportedCountry(value) ? undefined : `must be ${COUNTRY_CODE_MEANING}`
}

/** Why `value` is no phone a person may type, or undefined, in the words of every error about a phone. */
export function phoneProblem(value: unknown, country: string): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  return normalizePhone(value.trim(), country) === undefined ? `must be ${PHONE_INPUT_MEANING}` : undefined
}

/**
 * A typed phone number in E.164 (+15035550142), or undefined when it is none. International form is taken for
 * any country; a national number is read as one of `country`'s. Possible, not valid: a number of the right length
 * for its country is taken even where no line is assigned (the 555 numbers of examples and tests).
 */
export function normalizePhone(value: string, country: string): string | undefined {
  if (value.length > PHONE_INPUT.maxLength || !TYPED_NUMBER.test(value)) return undefined
  const parsed = parsePhoneNumberFromString(value, isSupportedCountry(country) ? (country as CountryCode) : undefined)
  return parsed?.isPossible() ? parsed.number : undefined
}
