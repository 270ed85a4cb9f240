import type { Actor } from '../../domain/auth/actor'
import type { ImportReport } from '../../domain/imports/import'
import { authorize } from '../auth/authorize'
import type { ImportOptions, ImportSource, RecordImport } from '../imports/record-import'
import type { NeedImporter } from './need-importer'

// docs/api/exports-import.md "Import"
export class ImportNeeds {
  constructor(
    private readonly imports: RecordImport,
    private readonly importer: NeedImporter,
  ) {}

  async execute(actor: Actor, file: ImportSource, options: ImportOptions): Promise<ImportReport> {
    authorize(actor, 'records:import')
    return this.imports.run(this.importer, actor, file, options)
  }
}
