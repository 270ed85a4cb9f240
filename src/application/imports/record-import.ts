import type { FieldError } from '../../domain/errors'
import { InvalidError, PayloadTooLargeError } from '../../domain/errors'
import {
  headerOf,
  IMPORT_LIMITS,
  isBlank,
  REPORTED_ERRORS,
  rowErrorOf,
  rowOf,
  type ImportColumns,
  type ImportHeader,
  type ImportReport,
  type ImportRow,
} from '../../domain/imports/import'
import { CsvReader } from '../../domain/shared/csv-reader'
import type { AuditSubject, AuditTrail } from '../audit/audit-trail'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'

// docs/api/exports-import.md "Import"

/** Rows written per transaction: big enough that a commit's fixed cost does not count, small enough to hold no lock for long. */
export const IMPORT_BATCH_ROWS = 500

/** How one kind of record is imported: its columns, its rows' rules, what makes two the same, and its creation. */
export interface RecordImporter<T> {
  readonly what: 'constituents' | 'needs' | 'taxonomyTerms'
  readonly columns: ImportColumns
  /** Reads what the rows' rules need of the organization (its partners), once per file. */
  prepare(repositories: Repositories, organizationId: string): Promise<RowParser<T>>
  /** The keys by which a later row of the file is the same as this one. */
  keysOf(value: T): string[]
  /** For each value, whether the organization already holds its record. */
  existing(repositories: Repositories, organizationId: string, values: readonly T[]): Promise<boolean[]>
  /** Creates the records, in order, inside the batch's transaction, as intake would (duplicate detection, events, audit). */
  create(repositories: Repositories, subject: AuditSubject, values: readonly T[]): Promise<void>
}

/** A row's value, or the errors of its fields. */
export type RowParser<T> = (row: ImportRow) => { value: T } | { errors: FieldError[] }

export interface ImportOptions {
  dryRun: boolean
  /** Told the rows read so far after each batch: the CLI's progress. */
  onProgress?: (rowsRead: number) => void
}

/** The bytes of a CSV file as they arrive: an HTTP body, a file read in pieces. */
export type ImportSource = AsyncIterable<Uint8Array>

/**
 * Runs an import: reads the file as it arrives, checks each row, and creates the new ones in batches, each
 * batch in one transaction (a crash loses no committed batch, and importing the file again skips what is
 * in). A dry run reads and checks the same way and writes nothing, so it answers what a run would do.
 */
export class RecordImport {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly repositories: Repositories,
    private readonly audit: AuditTrail,
  ) {}

  async run<T>(importer: RecordImporter<T>, subject: AuditSubject, source: ImportSource, options: ImportOptions): Promise<ImportReport> {
    const parse = await importer.prepare(this.repositories, subject.organizationId)
    const report: ImportReport = {
      dryRun: options.dryRun,
      rows: 0,
      created: 0,
      skipped: 0,
      errors: [],
      columns: { matched: [], unknown: [] },
    }
    const seen = new Set<string>()
    let batch: T[] = []
    const flush = async () => {
      await this.write(importer, subject, batch, report, options.dryRun)
      batch = []
      options.onProgress?.(report.rows)
    }
    let header: ImportHeader | undefined
    let number = 0
    // The file's number of the last row taken in: what a fault of the file further on leaves done.
    let last = 0
    try {
      for await (const records of csvRecords(source)) {
        for (const record of records) {
          if (!header) {
            header = headerOf(record, importer.columns)
            report.columns = header.report
            continue
          }
          number += 1
          if (isBlank(record)) continue
          if (report.rows === IMPORT_LIMITS.maxRows) {
            throw new PayloadTooLargeError(`The file may hold at most ${IMPORT_LIMITS.maxRows} rows: split it`)
          }
          report.rows += 1
          last = number
          const value = this.check(parse, header, record, number, report)
          if (value === undefined) continue
          const keys = importer.keysOf(value)
          if (keys.some((key) => seen.has(key))) report.skipped += 1
          else batch.push(value)
          for (const key of keys) seen.add(key)
          if (batch.length === IMPORT_BATCH_ROWS) await flush()
        }
      }
      if (!header) headerOf(undefined, importer.columns)
    } catch (error) {
      const faultOfTheFile = error instanceof InvalidError || error instanceof PayloadTooLargeError
      if (!faultOfTheFile || last === 0) throw error
      // The rows before the fault are written as a batch would be (earlier batches are in already), and said.
      await flush()
      if (!options.dryRun) await this.recordRun(importer, subject, report)
      throw stoppedAt(error, last, options.dryRun)
    }
    await flush()
    if (!options.dryRun) await this.recordRun(importer, subject, report)
    return report
  }

  private check<T>(parse: RowParser<T>, header: ImportHeader, record: string[], number: number, report: ImportReport): T | undefined {
    const cells = rowOf(header, record)
    const parsed = 'error' in cells ? { errors: [cells.error] } : parse(cells.row)
    if ('value' in parsed) return parsed.value
    const room = REPORTED_ERRORS - report.errors.length
    report.errors.push(...parsed.errors.slice(0, Math.max(room, 0)).map((error) => rowErrorOf(number, error)))
    return undefined
  }

  /** Creates the batch's new records in one transaction (a dry run only looks), counting the rest as skipped. */
  private async write<T>(importer: RecordImporter<T>, subject: AuditSubject, batch: T[], report: ImportReport, dryRun: boolean) {
    if (batch.length === 0) return
    const work = async (r: Repositories) => {
      const existing = await importer.existing(r, subject.organizationId, batch)
      const fresh = batch.filter((_, i) => !existing[i])
      if (!dryRun && fresh.length > 0) await importer.create(r, subject, fresh)
      return fresh.length
    }
    const created = dryRun ? await work(this.repositories) : await this.unitOfWork.run(work)
    report.created += created
    report.skipped += batch.length - created
  }

  /** One event for the whole run: what it imported (in `fields`) and its counts, never a value (docs/audit.md). */
  private async recordRun(importer: RecordImporter<unknown>, subject: AuditSubject, report: ImportReport) {
    const { rows, created, skipped } = report
    const entry = {
      action: 'import',
      recordType: 'organization',
      recordId: subject.organizationId,
      fields: [importer.what],
      counts: { rows, created, skipped, refused: rows - created - skipped },
    } as const
    await this.unitOfWork.run((r) => this.audit.record(r, subject, entry))
  }
}

/** A fault of the file at a row past `last`, saying what was done before it and that the rest was not read. */
function stoppedAt(error: InvalidError | PayloadTooLargeError, last: number, dryRun: boolean): Error {
  const message = `${error.message}; rows 1 to ${last} were ${dryRun ? 'checked' : 'imported'}, the rest was not read`
  return error instanceof InvalidError ? new InvalidError(message, error.errors) : new PayloadTooLargeError(message)
}

/** The file's records as its bytes arrive: UTF-8 (a byte-order mark is dropped), at most `IMPORT_LIMITS.maxBytes`. */
async function* csvRecords(source: ImportSource): AsyncGenerator<string[][]> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const reader = new CsvReader()
  let bytes = 0
  for await (const chunk of source) {
    bytes += chunk.byteLength
    if (bytes > IMPORT_LIMITS.maxBytes) {
      throw new PayloadTooLargeError(`The file may be at most ${IMPORT_LIMITS.maxBytes} bytes (10 MiB): split it`)
    }
    yield reader.push(decodeUtf8(decoder, chunk))
  }
  yield reader.push(decodeUtf8(decoder))
  yield reader.end()
}

function decodeUtf8(decoder: TextDecoder, chunk?: Uint8Array): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
  } catch {
    throw new InvalidError('The file is not UTF-8 text: save it as CSV UTF-8')
  }
}
