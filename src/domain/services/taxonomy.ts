import type { FieldError } from '../errors'
import { FieldChecks, FREE_TEXT, NAME, type TextRule } from '../shared/fields'

// docs/api/services.md "Taxonomy": the organization's own vocabularies (Open Eligibility, a licensed 211 one...), imported as CSV.

/** One term of a vocabulary the organization imported; `id` is stable, the term's HSDS `taxonomy_term` id. */
export interface TaxonomyTerm {
  id: string
  organizationId: string
  vocabulary: string
  code: string
  name: string
  description?: string
}

/** Which term a service names: a vocabulary's code. */
export interface TermReference {
  vocabulary: string
  code: string
}

/** A vocabulary's name, as `open-eligibility` or `211-la`. */
export const VOCABULARY = { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 100 } as const satisfies TextRule
export const VOCABULARY_MEANING = 'letters, digits, dots, dashes and underscores, as open-eligibility'
export const TERM_CODE = { minLength: 1, maxLength: 100 } as const satisfies TextRule
/** The columns of a vocabulary's file, in the header row (any order). */
export const TERM_COLUMNS = ['code', 'name', 'description'] as const

/** What a file's row gives of a term. */
export type TermFields = Pick<TaxonomyTerm, 'code' | 'name' | 'description'>

/** The problems of a term's row: a code and a name, a description if any. */
export function termFieldErrors(input: Partial<Record<keyof TermFields, unknown>>): FieldError[] {
  return new FieldChecks()
    .text('/code', input.code, TERM_CODE, { trim: true })
    .text('/name', input.name, NAME, { trim: true })
    .text('/description', input.description, FREE_TEXT, { presence: 'optional' }).errors
}

/** The key of a term within its organization: its vocabulary and code. */
export function termKey(term: TermReference): string {
  return `${term.vocabulary}\u0000${term.code}`
}
