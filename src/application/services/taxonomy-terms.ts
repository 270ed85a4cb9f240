import type { Actor } from '../../domain/auth/actor'
import { InvalidError } from '../../domain/errors'
import type { ImportReport } from '../../domain/imports/import'
import { termFieldErrors, termKey, TERM_COLUMNS, VOCABULARY, VOCABULARY_MEANING, type TaxonomyTerm } from '../../domain/services/taxonomy'
import { FieldChecks } from '../../domain/shared/fields'
import type { Page, PageRequest } from '../../domain/shared/page'
import type { AuditSubject } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { ImportOptions, ImportSource, RecordImport, RecordImporter } from '../imports/record-import'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { TermQuery } from '../ports/repositories/taxonomy-term-repository'

// docs/api/services.md "Taxonomy": no vocabulary is shipped; an organization imports its own as CSV of code, name, description.

/** One vocabulary's terms from a file: a code on file already, or earlier in the file, is skipped. */
class TaxonomyTermImporter implements RecordImporter<TaxonomyTerm> {
  readonly what = 'taxonomyTerms'
  readonly columns = { read: TERM_COLUMNS, ignored: [] }

  constructor(
    private readonly vocabulary: string,
    private readonly ids: IdGenerator,
  ) {}

  async prepare(_repositories: Repositories, organizationId: string) {
    return (row: Readonly<Record<string, string>>) => {
      const errors = termFieldErrors(row)
      if (errors.length > 0) return { errors }
      const description = row.description?.trim()
      const term: TaxonomyTerm = {
        id: this.ids.next(),
        organizationId,
        vocabulary: this.vocabulary,
        code: row.code!.trim(),
        name: row.name!.trim(),
        ...(description ? { description } : {}),
      }
      return { value: term }
    }
  }
  keysOf(term: TaxonomyTerm): string[] {
    return [termKey(term)]
  }
  async existing(r: Repositories, organizationId: string, batch: readonly TaxonomyTerm[]): Promise<boolean[]> {
    const onFile = new Set((await r.taxonomyTerms.findByReferences(organizationId, batch)).map(termKey))
    return batch.map((term) => onFile.has(termKey(term)))
  }
  async create(r: Repositories, _subject: AuditSubject, batch: readonly TaxonomyTerm[]): Promise<void> {
    await r.taxonomyTerms.insertMany(batch)
  }
}

export class ImportTaxonomyTerms {
  constructor(
    private readonly imports: RecordImport,
    private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, vocabulary: string, file: ImportSource, options: ImportOptions): Promise<ImportReport> {
    authorize(actor, 'taxonomy:import')
    const errors = new FieldChecks().text('/vocabulary', vocabulary, VOCABULARY, { meaning: VOCABULARY_MEANING }).errors
    InvalidError.throwIfAny(errors, 'The vocabulary is not valid')
    return this.imports.run(new TaxonomyTermImporter(vocabulary, this.ids), actor, file, options)
  }
}

export class SearchTaxonomyTerms {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor, query: TermQuery, page: PageRequest): Promise<Page<TaxonomyTerm>> {
    authorize(actor, 'services:list')
    return this.repositories.taxonomyTerms.search(actor.organizationId, query, page)
  }
}
