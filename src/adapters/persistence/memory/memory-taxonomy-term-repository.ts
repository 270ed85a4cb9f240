import type { TaxonomyTermRepository, TermQuery } from '../../../application/ports/repositories/taxonomy-term-repository'
import { termKey, type TaxonomyTerm, type TermReference } from '../../../domain/services/taxonomy'
import type { PageRequest } from '../../../domain/shared/page'
import { copy } from './memory-store'
import { MemoryRepository, page } from './memory-repository'

export class MemoryTaxonomyTermRepository extends MemoryRepository implements TaxonomyTermRepository {
  private ofOrganization(organizationId: string) {
    return [...this.t.taxonomyTerms.values()].filter((term) => term.organizationId === organizationId)
  }
  async insertMany(terms: readonly TaxonomyTerm[]) {
    for (const term of terms) this.t.taxonomyTerms.set(term.id, copy(term))
  }
  async findByReferences(organizationId: string, references: readonly TermReference[]) {
    const wanted = new Set(references.map(termKey))
    return this.ofOrganization(organizationId)
      .filter((term) => wanted.has(termKey(term)))
      .map(copy)
  }
  async search(organizationId: string, { vocabulary, q }: TermQuery, request: PageRequest) {
    const words = q?.toLowerCase()
    const kept = this.ofOrganization(organizationId).filter(
      (term) =>
        (vocabulary === undefined || term.vocabulary === vocabulary) &&
        (words === undefined || term.code.toLowerCase().includes(words) || term.name.toLowerCase().includes(words)),
    )
    return page(
      kept.sort((a, b) => byText(a.vocabulary, b.vocabulary) || byText(a.code, b.code)),
      request,
    )
  }
}

/** Code unit order, as the databases' columns compare. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
