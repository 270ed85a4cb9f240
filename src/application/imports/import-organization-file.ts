import { NotFoundError } from '../../domain/errors'
import type { ImportReport } from '../../domain/imports/import'
import type { ConstituentImporter } from '../constituents/constituent-importer'
import type { NeedImporter } from '../needs/need-importer'
import type { Repositories } from '../ports/repositories'
import type { ImportOptions, ImportSource, RecordImport } from './record-import'

/** What an import brings in. */
export type ImportKind = 'constituents' | 'needs'

/**
 * An operator's command (`intake import constituents|needs --org SLUG --file F`): the same import as the API's,
 * for the organization the slug names, by nobody logged in (its audit event names no member).
 */
export class ImportOrganizationFile {
  constructor(
    private readonly repositories: Repositories,
    private readonly imports: RecordImport,
    private readonly constituents: ConstituentImporter,
    private readonly needs: NeedImporter,
  ) {}

  async execute(slug: string, kind: ImportKind, file: ImportSource, options: ImportOptions): Promise<ImportReport> {
    const organization = await this.repositories.organizations.findBySlug(slug)
    if (!organization) throw new NotFoundError('Organization')
    const subject = { organizationId: organization.id }
    return kind === 'constituents'
      ? this.imports.run(this.constituents, subject, file, options)
      : this.imports.run(this.needs, subject, file, options)
  }
}
