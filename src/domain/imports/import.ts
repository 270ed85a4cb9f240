import { InvalidError, type FieldError } from '../errors'
import { restoreFormula } from '../shared/csv'

// docs/api/exports-import.md "Import"

/** The most one file may hold: rows after the header, and bytes as sent. */
export const IMPORT_LIMITS = { maxRows: 50_000, maxBytes: 10 * 1024 * 1024 } as const

/** The report lists the first errors only: a file of 50,000 bad rows would otherwise answer megabytes of them. */
export const REPORTED_ERRORS = 1000

/** A row refused: its number (1 is the first after the header), the column at fault and what it must be. */
export interface ImportRowError {
  row: number
  field: string
  message: string
}

/**
 * What an import did, or would do on a dry run: `rows` read (blank lines aside), `created`, `skipped` (the
 * same as a record on file or an earlier row of the file), and the rows refused with why. A row is one of
 * the three: `rows - created - skipped` rows were refused, of which the first `REPORTED_ERRORS` errors are listed.
 */
export interface ImportReport {
  dryRun: boolean
  rows: number
  created: number
  skipped: number
  errors: ImportRowError[]
}

/** One row as the header names its cells; a column missing from the file is absent, an empty cell is ''. */
export type ImportRow = Readonly<Record<string, string>>

/** The columns an import reads, and those of the export it leaves alone (a file exported elsewhere names them). */
export interface ImportColumns {
  read: readonly string[]
  ignored: readonly string[]
}

/**
 * The header's column names, checked: each known, none twice, at least one read. A column the import
 * does not know is refused rather than dropped: its data would be lost without a word.
 */
export function headerOf(record: readonly string[] | undefined, columns: ImportColumns): string[] {
  if (!record || (record.length === 1 && record[0]!.trim() === '')) {
    throw new InvalidError('The file is empty: it must begin with a header row naming its columns')
  }
  const names = record.map((name) => name.trim())
  const unknown = names.filter((name) => !columns.read.includes(name) && !columns.ignored.includes(name))
  if (unknown.length > 0) {
    throw new InvalidError(`The header names columns this import does not know: ${unknown.join(', ')}. It reads ${columns.read.join(', ')}`)
  }
  const twice = names.filter((name, i) => names.indexOf(name) !== i)
  if (twice.length > 0) throw new InvalidError(`The header names a column twice: ${[...new Set(twice)].join(', ')}`)
  if (!names.some((name) => columns.read.includes(name))) {
    throw new InvalidError(`The header names none of the columns this import reads: ${columns.read.join(', ')}`)
  }
  return names
}

/**
 * A record as a row of `header`'s read columns; a record of another length than the header is an error. A
 * cell the export made inert (`'+15551234567`) is read as the value it was.
 */
export function rowOf(
  header: readonly string[],
  record: readonly string[],
  columns: ImportColumns,
): { row: ImportRow } | { error: FieldError } {
  if (record.length !== header.length) {
    return { error: { path: '', message: `has ${record.length} cells where the header names ${header.length} columns` } }
  }
  return { row: Object.fromEntries(header.flatMap((name, i) => (columns.read.includes(name) ? [[name, restoreFormula(record[i]!)]] : []))) }
}

/** A blank line (a spreadsheet's trailing empty row): not a row of data. */
export function isBlank(record: readonly string[]): boolean {
  return record.every((cell) => cell.trim() === '')
}

/** The longest `field` and `message` a report holds: a path deep into `customFields` can be longer than any column. */
export const ROW_ERROR_TEXT = { maxLength: 1000 } as const

/** A field error of a row's parser (`/customFields/phone`) as the report names its column (`customFields/phone`). */
export function rowErrorOf(row: number, error: FieldError): ImportRowError {
  const clip = (text: string) => text.slice(0, ROW_ERROR_TEXT.maxLength)
  return { row, field: clip(error.path.replace(/^\//, '')), message: clip(error.message) }
}
