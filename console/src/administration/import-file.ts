import { IMPORT_COLUMNS } from '../../api-constants'
import type { components } from '../../schema'

// docs/console.md "Import": what the console does with the file itself, before and after the service reads it.
// The service is the judge of every row; the console only reads the header, renames its columns, and picks the
// refused rows out by the numbers the report gives them.

type Report = components['schemas']['ImportReport']
export type Kind = keyof typeof IMPORT_COLUMNS

/** A record of the file and where it ends in the text (after its line break). */
interface Record {
  cells: string[]
  end: number
}

/** The file's records as RFC 4180 reads them (CRLF or LF, quoted fields); lenient, since the service says what is wrong. */
export function csvRecords(text: string): Record[] {
  const records: Record[] = []
  let cells: string[] = []
  let field = ''
  let quoted = false
  const body = text.startsWith('\uFEFF') ? 1 : 0
  for (let i = body; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') field += text[++i]
      else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      cells.push(field)
      field = ''
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      if (char === '\r') i++
      records.push({ cells: [...cells, field], end: i + 1 })
      cells = []
      field = ''
    } else field += char
  }
  if (field !== '' || cells.length > 0) records.push({ cells: [...cells, field], end: text.length })
  return records
}

/** A record as CSV, each field quoted when it must be. */
export function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')
}

/** A header name as the service compares it: letters and digits only, accents dropped, any case. */
const keyOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')

/** The column of `kind` a header names by its own name or a common one (the document's table); '' for none. */
export function columnNamed(kind: Kind, header: string): string {
  const key = keyOf(header)
  const columns = Object.entries(IMPORT_COLUMNS[kind]) as Array<[string, readonly string[]]>
  return columns.find(([column, aliases]) => keyOf(column) === key || aliases.some((alias) => keyOf(alias) === key))?.[0] ?? ''
}

/** The file with its header row replaced by the chosen columns' names ('' for a column left out, which the service passes over). */
export function withHeader(text: string, columns: readonly string[]): string {
  const first = csvRecords(text)[0]
  const rest = first ? text.slice(first.end) : ''
  return `${csvLine(columns)}\r\n${rest}`
}

/**
 * The refused rows the report lists, as a CSV file: the file's own header and cells, and a `reason` column
 * of each row's errors. Row 1 is the first after the header, blank lines counted, as the service counts.
 */
export function refusedRows(text: string, report: Report): string {
  const [header, ...rows] = csvRecords(text)
  const reasons = new Map<number, string[]>()
  for (const { row, field, message } of report.errors)
    reasons.set(row, [...(reasons.get(row) ?? []), field ? `${field}: ${message}` : message])
  const lines = [...reasons].map(([row, reason]) => csvLine([...(rows[row - 1]?.cells ?? []), reason.join('; ')]))
  return `${[csvLine([...(header?.cells ?? []), 'reason']), ...lines].join('\r\n')}\r\n`
}
