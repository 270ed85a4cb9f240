// docs/api/exports-import.md "Exports": CSV as RFC 4180 writes it, with cells a spreadsheet would run made inert.

/**
 * What makes a spreadsheet read a cell as a formula, after OWASP's "CSV Injection" advice: = + - @ and,
 * because some programs drop them before looking, tab and carriage return; their fullwidth forms, which
 * some programs fold to the plain ones; all of these also after what a program may skip or strip first:
 * quotes, spaces and line feeds, and invisible format characters (zero-width space, joiners, BOM).
 */
const FORMULA_START = /^["'\uFF02\uFF07\p{Zs}\n\v\f\u2028\u2029\p{Cf}]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/u

/** A value that opens with a formula, so spelled, prefixed with a single quote: shown as the text it is. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value
}

/** A cell as an export wrote it, read back: the quote that `neutralizeFormula` put in front is taken off. */
export function restoreFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell
}

/** One field: neutralized, then quoted (quotes doubled) when it holds a comma, a quote, CR or LF. */
export function csvField(value: string): string {
  const cell = neutralizeFormula(value)
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell
}

/** One record, CRLF-terminated (RFC 4180 §2). */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
