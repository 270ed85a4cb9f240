import { parseArgs } from 'node:util'
import type { ImportKind } from '../application/imports/import-organization-file'
import type { ImportSource } from '../application/imports/record-import'
import type { UseCases } from '../application/use-cases'
import type { ImportReport } from '../domain/imports/import'

// `intake import constituents|needs --org SLUG --file F [--dry-run]` (docs/api/exports-import.md "Import").

export interface ImportCommand {
  kind: ImportKind
  org: string
  file: string
  dryRun: boolean
}

/** The command's arguments, or what is wrong with them. */
export function importCommandOf(args: string[]): ImportCommand | string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, file: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
  })
  const [kind, ...extra] = positionals
  if ((kind !== 'constituents' && kind !== 'needs') || extra.length > 0) return 'Say what to import: constituents or needs'
  if (!values.org || !values.file) return 'Missing: --org and --file are required'
  return { kind, org: values.org, file: values.file, dryRun: values['dry-run'] }
}

/** Where the progress goes: the terminal's stderr, redrawn in place, or plain lines for a log. */
export interface ProgressOutput {
  isTTY: boolean
  write(text: string): void
}

/**
 * Runs the import of the file, showing its progress by bytes read (a bar on a terminal, a line every tenth
 * otherwise) on `progress`, and answers its report. The exit code is 1 when a row was refused, so a script notices.
 */
export async function runImport(
  useCase: UseCases['operations']['importFile'],
  command: ImportCommand,
  progress: ProgressOutput,
): Promise<ImportReport> {
  const file = Bun.file(command.file)
  if (!(await file.exists())) throw new ImportFileError(`No such file: ${command.file}`)
  const meter = new ProgressMeter(file.size, progress)
  const report = await useCase.execute(command.org, command.kind, meter.counting(file.stream()), {
    dryRun: command.dryRun,
    onProgress: (rows) => meter.show(rows),
  })
  meter.done(report.rows)
  return report
}

/** A file the operator named that is not there: said in one line. */
export class ImportFileError extends Error {}

/** The summary, and each error listed by row and column. */
export function summaryOf(command: ImportCommand, report: ImportReport): string {
  const refused = report.rows - report.created - report.skipped
  const verb = report.dryRun ? 'Dry run of the import of' : 'Imported'
  const would = report.dryRun ? ' (nothing stored)' : ''
  return [
    `${verb} ${command.kind} into ${command.org}${would}: ${report.rows} rows, ${report.created} created, ${report.skipped} skipped, ${refused} refused.`,
    ...report.errors.map((error) => `  row ${error.row}${error.field ? ` ${error.field}` : ''}: ${error.message}`),
    ...(report.errors.length < refused ? [`  … and more: ${report.errors.length} errors listed`] : []),
  ].join('\n')
}

const BAR_WIDTH = 30

class ProgressMeter {
  private bytes = 0
  private shownTenths = 0

  constructor(
    private readonly size: number,
    private readonly output: ProgressOutput,
  ) {}

  async *counting(source: ImportSource): ImportSource {
    for await (const chunk of source) {
      this.bytes += chunk.byteLength
      yield chunk
    }
  }

  /** After a batch: the bar redrawn, or a line when another tenth of the file was read (bytes run ahead of rows). */
  show(rows: number): void {
    const share = this.size === 0 ? 1 : Math.min(this.bytes / this.size, 1)
    if (this.output.isTTY) {
      const filled = Math.round(share * BAR_WIDTH)
      this.output.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${rows} rows`)
      return
    }
    const tenths = Math.floor(share * 10)
    if (tenths > this.shownTenths) {
      this.shownTenths = tenths
      this.output.write(`${tenths * 10}% read, ${rows} rows\n`)
    }
  }

  done(rows: number): void {
    if (this.output.isTTY) this.show(rows)
    this.output.write(this.output.isTTY ? '\n' : `done, ${rows} rows\n`)
  }
}
