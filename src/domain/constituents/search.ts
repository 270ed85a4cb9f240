import type { ContactDetails } from './contact'
import { mailboxOf } from '../messaging/mailbox'
import { normalizeText } from './matching'

/**
 * How `GET /api/constituents?query=` is matched (docs/constituents.md), decided here once for every adapter:
 * - empty: every constituent;
 * - with an `@`: the email, whole, by its mailbox (`mailboxOf`: case, a `+tag`, Gmail's dots aside);
 * - only digits and phone punctuation (`+1 (555) 123-45`), at least 3 digits: any part of the phone's
 *   digits (`5550112` finds +15035550112), the country code included;
 * - otherwise words: each word must begin a word of the first or the last name (case- and accent-insensitive),
 *   a word of digits any part of the phone.
 */
export type ConstituentQuery =
  | { kind: 'all' }
  | { kind: 'email'; email: string }
  | { kind: 'phone'; digits: string }
  | { kind: 'words'; words: string[] }

/**
 * How many matches a search counts before it stops and answers "more than" (docs/api/conventions.md "Lists"): an exact
 * total of a common name would read every match, and a caseworker narrows a search long before this.
 */
export const SEARCH_TOTAL_BOUND = 1_000

/** The fewest digits a phone query has; each of the phone's terms is at least this long. */
export const PHONE_QUERY_DIGITS = 3

export function parseConstituentQuery(query: string | undefined): ConstituentQuery {
  const trimmed = (query ?? '').trim()
  if (trimmed === '') return { kind: 'all' }
  if (trimmed.includes('@')) return { kind: 'email', email: mailboxOf(trimmed) }
  const digits = trimmed.replace(/\D/g, '')
  if (/^[\d\s()+.-]+$/.test(trimmed) && digits.length >= PHONE_QUERY_DIGITS) return { kind: 'phone', digits }
  const words = normalizeText(trimmed).split(' ').filter(Boolean)
  return words.length === 0 ? { kind: 'all' } : { kind: 'words', words }
}

/**
 * A word of digits among names (`jose 555`) is looked for in the phone, as a phone query is: any part of
 * it; so it needs the permission to read phones.
 */
export function isDigitWord(word: string): boolean {
  return /^\d+$/.test(word)
}

/** The indexed words of a constituent's names, which a query of words looks for. */
export function nameTermsOf(c: ContactDetails): string[] {
  return [c.firstName, c.lastName].flatMap((n) => (n ? normalizeText(n).split(' ').filter(Boolean) : []))
}

/**
 * The indexed terms of a constituent's phone: every ending of its digits down to PHONE_QUERY_DIGITS (the
 * whole number when shorter). A query's digits begin one of them wherever they sit in the number, so "any
 * part of the number" stays a prefix match, which every index serves (docs/constituents.md "Search").
 */
export function phoneTermsOf(c: ContactDetails): string[] {
  const digits = c.phone ? c.phone.replace(/\D/g, '') : ''
  if (digits.length <= PHONE_QUERY_DIGITS) return digits ? [digits] : []
  return Array.from({ length: digits.length - PHONE_QUERY_DIGITS + 1 }, (_, start) => digits.slice(start))
}

/** Whether every query word begins one of the terms (the memory adapter's matching; SQL indexes do the same). */
export function termsMatch(terms: readonly string[], prefixes: readonly string[]): boolean {
  return prefixes.every((p) => terms.some((t) => t.startsWith(p)))
}
