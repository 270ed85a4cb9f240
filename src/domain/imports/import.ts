import { InvalidError, type FieldError } from '../errors'
import { restoreFormula } from '../shared/csv'
import { columnNamed } from './header-names'

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
  columns: HeaderReport
}

/** The report names at most this many unknown header names, each cut to `ROW_ERROR_TEXT`: a header may be of any width. */
export const REPORTED_UNKNOWN = 100

/** How the header was read: each header naming a column read, with that column, and the headers nothing reads. */
export interface HeaderReport {
  matched: Array<{ header: string; column: string }>
  unknown: string[]
}

/** The header as read: for each of its cells the column it names (undefined: passed over), and what the report says of it. */
export interface ImportHeader {
  columns: ReadonlyArray<string | undefined>
  report: HeaderReport
}

/** One row as the header names its cells; a column missing from the file is absent, an empty cell is ''. */
export type ImportRow = Readonly<Record<string, string>>

/** The columns an import reads, and those of the export it leaves alone (a file exported elsewhere names them). */
export interface ImportColumns {
  read: readonly string[]
  ignored: readonly string[]
}

/**
 * The header read: each name matched to a column by its own name or a common one (`columnNamed`). The export's
 * columns an import leaves alone are passed over, and so are names nothing reads, which the report lists as
 * unknown (a dry run shows them before anything is stored). Two names of one column, or none read, are refused.
 */
export function headerOf(record: readonly string[] | undefined, columns: ImportColumns): ImportHeader {
  if (!record || (record.length === 1 && record[0]!.trim() === '')) {
    throw new InvalidError('The file is empty: it must begin with a header row naming its columns')
  }
  const names = record.map((name) => name.trim())
  const read = names.map((name) => columnNamed(name, columns.read))
  const twice = columns.read.filter((column) => read.filter((named) => named === column).length > 1)
  if (twice.length > 0) {
    const namesOf = (column: string) => names.filter((_, i) => read[i] === column).join(', ')
    throw new InvalidError(`The header names a column twice: ${twice.map((column) => `${column} (${namesOf(column)})`).join('; ')}`)
  }
  if (read.every((column) => column === undefined)) {
    throw new InvalidError(`The header names none of the columns this import reads: ${columns.read.join(', ')}`)
  }
  const clip = (name: string) => name.slice(0, ROW_ERROR_TEXT.maxLength)
  return {
    columns: read,
    report: {
      matched: names.flatMap((header, i) => (read[i] ? [{ header: clip(header), column: read[i] }] : [])),
      unknown: names
        .filter((name, i) => !read[i] && !columnNamed(name, columns.ignored))
        .slice(0, REPORTED_UNKNOWN)
        .map(clip),
    },
  }
}

/**
 * A record as a row of the columns `header` reads; a record of another length than the header is an error. A
 * cell the export made inert (`'+15551234567`) is read as the value it was.
 */
export function rowOf(header: ImportHeader, record: readonly string[]): { row: ImportRow } | { error: FieldError } {
  const { columns } = header
  if (record.length !== columns.length) {
    return { error: { path: '', message: `has ${record.length} cells where the header names ${columns.length} columns` } }
  }
  return { row: Object.fromEntries(columns.flatMap((column, i) => (column ? [[column, restoreFormula(record[i]!)]] : []))) }
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
