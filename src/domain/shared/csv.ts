// docs/api.md "Exports": CSV as RFC 4180 writes it, with cells a spreadsheet would run made inert.

/**
 * What makes a spreadsheet read a cell as a formula, after OWASP's "CSV Injection" advice: = + - @ and,
 * because some programs drop them before looking, tab and carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/

/** A value that opens with a formula character, prefixed with a single quote: shown as the text it is. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value
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
