import type { ServiceDetail } from './service'

// docs/directory.md "Paging and filters": what a published directory's `/services` keeps, each filter narrowing the others.

/** The filters of a directory's list of services, HSDS's `search`, `taxonomy_term_id` and `modified_after`. */
export interface DirectoryQuery {
  search?: string
  taxonomyTermId?: string
  modifiedAfter?: Date
}

/** Whether the service is one the query keeps: every word of `search` in its name, description or terms' names, case aside. */
export function keptByQuery(service: ServiceDetail, query: DirectoryQuery): boolean {
  if (query.modifiedAfter && service.updatedAt <= query.modifiedAfter) return false
  if (query.taxonomyTermId && !service.taxonomyTerms.some((term) => term.id === query.taxonomyTermId)) return false
  const words = wordsOf(query.search ?? '')
  if (words.length === 0) return true
  const text = wordsOf([service.name, service.description ?? '', ...service.taxonomyTerms.map((term) => term.name)].join(' '))
  return words.every((word) => text.some((found) => found.startsWith(word)))
}

function wordsOf(text: string): string[] {
  return text
    .toLocaleLowerCase('und')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}
