import type { ContactDetails } from './contact'
import { normalizeText } from './matching'

/**
 * How `GET /api/constituents?query=` is matched (docs/constituents.md), decided here once for every adapter:
 * - empty: every constituent;
 * - with an `@`: the email, whole and case-insensitive;
 * - only digits and phone punctuation (`+1 (555) 123-45`), at least 3 digits: a prefix of the phone's
 *   digits, with or without the +1 country code;
 * - otherwise words: each word must begin the first or the last name (case- and accent-insensitive).
 */
export type ConstituentQuery =
  | { kind: 'all' }
  | { kind: 'email'; email: string }
  | { kind: 'phone'; digits: string }
  | { kind: 'words'; words: string[] }

export function parseConstituentQuery(query: string | undefined): ConstituentQuery {
  const trimmed = (query ?? '').trim()
  if (trimmed === '') return { kind: 'all' }
  if (trimmed.includes('@')) return { kind: 'email', email: trimmed.toLowerCase() }
  const digits = trimmed.replace(/\D/g, '')
  if (/^[\d\s()+.-]+$/.test(trimmed) && digits.length >= 3) return { kind: 'phone', digits }
  const words = normalizeText(trimmed).split(' ').filter(Boolean)
  return words.length === 0 ? { kind: 'all' } : { kind: 'words', words }
}

/** The indexed words of a constituent: its name words and its phone's digits (with and without +1). */
export function searchTermsOf(c: ContactDetails): string[] {
  const names = [c.firstName, c.lastName].flatMap((n) => (n ? normalizeText(n).split(' ').filter(Boolean) : []))
  const phone = c.phone ? c.phone.replace(/\D/g, '') : ''
  const phones = phone ? (phone.length === 11 && phone.startsWith('1') ? [phone, phone.slice(1)] : [phone]) : []
  return [...names, ...phones]
}

/** Whether every query word begins one of the terms (the memory adapter's matching; SQL indexes do the same). */
export function termsMatch(terms: readonly string[], prefixes: readonly string[]): boolean {
  return prefixes.every((p) => terms.some((t) => t.startsWith(p)))
}
