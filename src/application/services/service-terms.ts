import { InvalidError } from '../../domain/errors'
import type { Service, ServiceDetail } from '../../domain/services/service'
import { termKey, type TaxonomyTerm, type TermReference } from '../../domain/services/taxonomy'
import type { Repositories } from '../ports/repositories'

// docs/api/services.md "Taxonomy": a service names its terms by vocabulary and code; they are read with it as imported.

/** The references, once each, each an imported term of the organization: an unknown one is a 400 naming its place. */
export async function knownTerms(r: Repositories, organizationId: string, references: readonly TermReference[]): Promise<TermReference[]> {
  const distinct = [...new Map(references.map((ref) => [termKey(ref), { vocabulary: ref.vocabulary, code: ref.code }])).values()]
  const found = new Set((await r.taxonomyTerms.findByReferences(organizationId, distinct)).map(termKey))
  const unknown = references.flatMap((ref, i) =>
    found.has(termKey(ref))
      ? []
      : [{ path: `/taxonomyTerms/${i}`, message: `names no term the organization imported: ${ref.code} of ${ref.vocabulary}` }],
  )
  InvalidError.throwIfAny(unknown, 'The service names taxonomy terms that were not imported')
  return distinct
}

/** The services with their terms' names and descriptions, read in one lookup. */
export async function withTerms(r: Repositories, organizationId: string, services: readonly Service[]): Promise<ServiceDetail[]> {
  const terms = await r.taxonomyTerms.findByReferences(
    organizationId,
    services.flatMap((s) => s.taxonomyTerms),
  )
  const byKey = new Map(terms.map((term) => [termKey(term), term]))
  return services.map((service) => ({
    ...service,
    taxonomyTerms: service.taxonomyTerms.flatMap((ref) => {
      const term: TaxonomyTerm | undefined = byKey.get(termKey(ref))
      return term ? [term] : []
    }),
  }))
}
