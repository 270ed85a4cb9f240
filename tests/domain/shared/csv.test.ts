import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { csvField, csvRecord, neutralizeFormula } from '../../../src/domain/shared/csv'
import { parseCsv } from '../../support/csv'

// docs/api/exports-import.md "Exports": RFC 4180 records, formula characters made inert.
const FORMULA_START = ['=', '+', '-', '@', '\t', '\r']

/** Text rich in what CSV and spreadsheets care about: separators, quotes, line ends, formula characters. */
const cellText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(',', '"', '\r', '\n', "'", ' ', ...FORMULA_START),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
  ),
  maxLength: 30,
})

describe('CSV records', () => {
  test('a parser reads back every record as written, formula openers prefixed with one quote', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cellText, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), (rows) => {
        const text = rows.map(csvRecord).join('')
        expect(parseCsv(text)).toEqual(rows.map((row) => row.map(neutralizeFormula)))
      }),
    )
  })

  test('no cell read back starts with a formula character', () => {
    fc.assert(
      fc.property(fc.array(cellText, { minLength: 1, maxLength: 8 }), (row) => {
        for (const cell of parseCsv(csvRecord(row))[0]!) expect(FORMULA_START.includes(cell[0] ?? '')).toBe(false)
      }),
    )
  })

  test('neutralizing changes only cells that open with a formula character, by one leading quote', () => {
    fc.assert(
      fc.property(cellText, (value) => {
        const opensFormula = FORMULA_START.includes(value[0] ?? '')
        // A cell that opens otherwise may still hide a formula behind quotes or spaces (the table below).
        if (opensFormula) expect(neutralizeFormula(value)).toBe(`'${value}`)
        else expect([value, `'${value}`]).toContain(neutralizeFormula(value))
      }),
    )
  })

  // What a program may skip or strip before it looks for a formula, and the fullwidth forms it may fold.
  const HIDING = [
    '"',
    "'",
    '""',
    ' ',
    '\u00A0',
    '\u3000',
    '\n',
    '\u200B',
    '\u200C',
    '\u200D',
    '\u2060',
    '\uFEFF',
    '\u00AD',
    '\u202E',
    '\uFF02',
    ' "\u200B',
  ]
  const OPENERS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']

  test.each(OPENERS.flatMap((opener) => ['', ...HIDING].map((lead) => [JSON.stringify(lead + opener), `${lead}${opener}1+1`])))(
    '%s opens a formula: prefixed with one quote',
    (_spelling, value) => {
      expect(neutralizeFormula(value)).toBe(`'${value}`)
    },
  )

  test.each(['', 'Ana', '1+1', 'a=b', '"quoted"', '\u200Bname', ' 5', "O'Brien", 'x@example.org', '\uFF21\uFF1D', '\n\nline'])(
    '%p opens no formula: unchanged',
    (value) => {
      expect(neutralizeFormula(value)).toBe(value)
    },
  )

  test('quotes only what needs it, doubling quotes; records end in CRLF', () => {
    expect(csvField('plain text')).toBe('plain text')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`)
    expect(csvField('\r=1')).toBe(`"'\r=1"`)
    expect(csvRecord(['a', '', 'José Núñez'])).toBe('a,,José Núñez\r\n')
  })
})
