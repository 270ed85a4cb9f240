import type { TaxonomyTerm, TermReference } from '../../../domain/services/taxonomy'
import type { Page, PageRequest } from '../../../domain/shared/page'

/** Which terms a pick list shows: one vocabulary's, those whose code or name holds `q` (case aside). */
export interface TermQuery {
  vocabulary?: string
  q?: string
}

export interface TaxonomyTermRepository {
  insertMany(terms: readonly TaxonomyTerm[]): Promise<void>
  /** The organization's terms with these vocabularies and codes, in no order; one not on file is left out. */
  findByReferences(organizationId: string, references: readonly TermReference[]): Promise<TaxonomyTerm[]>
  /** The organization's terms the query keeps, by vocabulary then code, paged, and how many there are. */
  search(organizationId: string, query: TermQuery, page: PageRequest): Promise<Page<TaxonomyTerm>>
}
