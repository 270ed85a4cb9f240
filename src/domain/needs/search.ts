import type { Actor } from '../auth/actor'
import { isAllowed } from '../auth/permissions'
import { normalizeText } from '../constituents/matching'
import { nameTermsOf } from '../constituents/search'
import type { ContactDetails } from '../constituents/contact'
import { newestFirst } from '../shared/page'
import { NEED_STATUSES, type Need } from './need'

/**
 * How `GET /api/needs?q=` is matched (docs/api/needs.md "Search and sort"), decided here once for every adapter: each
 * word of the query (case- and accent-insensitive, as constituent search's) must begin a word of the need's
 * reference number, of its description (`customFields.description`), of the person's name it recorded
 * (`customFields.firstName`, `lastName`) or of the name of the person on file it is for (`constituentId`), each
 * only where the reader may see it (`searchableKinds`).
 */
export interface NeedSearch {
  words: string[]
  /** The kinds of term the reader may find a need by. */
  kinds: NeedSearchKind[]
}

/**
 * What an indexed word of a need is, by who may find the need by it: the reference (`r`) and a description
 * (`d`) by every reader of needs, a name (`n`) by readers of constituents; a confidential need's description
 * (`c`) and names (`m`) only by readers of confidential needs too.
 */
export type NeedTermKind = 'r' | 'd' | 'n' | 'c' | 'm'

/**
 * What a need is found by: its indexed words, and the name of the person on file it is for (`p`), by readers of
 * constituents; a confidential need's (`q`) by readers of confidential needs too, as the names written on it. The
 * person's name is never indexed with the need: it is looked up in the constituents' own as the query runs, so a
 * rename, a merge or an erasure is followed at once.
 */
export type NeedSearchKind = NeedTermKind | 'p' | 'q'

export interface NeedTerm<Kind extends NeedSearchKind = NeedTermKind> {
  kind: Kind
  term: string
}

/** The most words a query keeps: a caseworker narrows by a few words, and each word is one more lookup. */
export const NEED_QUERY_WORDS = 8

/** The query's words, or none for an empty query (no search). */
export function needQueryWords(query: string | undefined): string[] {
  const words = normalizeText(query ?? '')
    .split(' ')
    .filter(Boolean)
  return [...new Set(words)].slice(0, NEED_QUERY_WORDS)
}

/** Which kinds of term this reader finds needs by: only what it may see of them (docs/api/access.md). */
export function searchableKinds(actor: Actor): NeedSearchKind[] {
  const confidential = isAllowed(actor, 'needs:read-confidential')
  const names = isAllowed(actor, 'constituents:read')
  return (['r', 'd', 'n', 'c', 'm', 'p', 'q'] as const).filter(
    (kind) =>
      kind === 'r' ||
      kind === 'd' ||
      ((kind === 'n' || kind === 'p') && names) ||
      (kind === 'c' && confidential) ||
      ((kind === 'm' || kind === 'q') && names && confidential),
  )
}

/** The words of the name of the person on file a need is for (`p`, `q`): the constituent's, as it is now. */
export function personTermsOf(person: ContactDetails | undefined, need: Pick<Need, 'isConfidential'>): NeedTerm<'p' | 'q'>[] {
  const kind = need.isConfidential ? 'q' : 'p'
  return person ? nameTermsOf(person).map((term) => ({ kind, term })) : []
}

/** The words of a reference number (`REQ-1001`: `req`, `1001`). The stores write the same in SQL (`referenceTermsSql`). */
export function referenceTermsOf(referenceNumber: string): string[] {
  return normalizeText(referenceNumber).split(' ').filter(Boolean)
}

/**
 * The indexed words of a need's text, each once per kind: its description and the names it recorded. Their
 * kind marks a confidential need's. The reference's are apart (`referenceTermsOf`): it never changes.
 */
export function needTextTermsOf(need: Pick<Need, 'customFields' | 'isConfidential'>): NeedTerm[] {
  const words = (...values: unknown[]) => [...new Set(values.flatMap((v) => (typeof v === 'string' ? normalizeText(v).split(' ') : [])))]
  const { description, firstName, lastName } = need.customFields
  const [descriptionKind, nameKind]: NeedTermKind[] = need.isConfidential ? ['c', 'm'] : ['d', 'n']
  return [
    ...words(description)
      .filter(Boolean)
      .map((term) => ({ kind: descriptionKind!, term })),
    ...words(firstName, lastName)
      .filter(Boolean)
      .map((term) => ({ kind: nameKind!, term })),
  ]
}

/** Whether a need's terms hold every word of the search as the beginning of one of the kinds asked (the memory store's matching). */
export function needMatches(terms: readonly NeedTerm<NeedSearchKind>[], search: NeedSearch): boolean {
  const readable = terms.filter((t) => search.kinds.includes(t.kind))
  return search.words.every((word) => readable.some((t) => t.term.startsWith(word)))
}

/** The orders of a need list (`?sort=`): a field, descending with a leading `-`. */
export const NEED_SORTS = ['createdAt', '-createdAt', 'dueDate', '-dueDate', 'status', '-status'] as const
export type NeedSort = (typeof NEED_SORTS)[number]

/**
 * The comparison of two needs in a sort's order: the field (a status in the status table's order, needs
 * without a due date last either way), then newest first, `id` as tie-break, as every list.
 */
export function needOrder(sort: NeedSort): (a: Need, b: Need) => number {
  const sign = sort.startsWith('-') ? -1 : 1
  const field = sort.replace('-', '') as 'createdAt' | 'dueDate' | 'status'
  return (a, b) => {
    if (field === 'createdAt') return sign * (a.createdAt.getTime() - b.createdAt.getTime()) || sign * a.id.localeCompare(b.id)
    const byField =
      field === 'status'
        ? sign * (NEED_STATUSES.indexOf(a.status) - NEED_STATUSES.indexOf(b.status))
        : (a.dueDate === undefined ? 1 : 0) - (b.dueDate === undefined ? 1 : 0) ||
          sign * ((a.dueDate?.getTime() ?? 0) - (b.dueDate?.getTime() ?? 0))
    return byField || newestFirst(a, b)
  }
}
