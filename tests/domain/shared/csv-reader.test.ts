import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { csvRecord, restoreFormula } from '../../../src/domain/shared/csv'
import { CsvReader } from '../../../src/domain/shared/csv-reader'
import { InvalidError } from '../../../src/domain/errors'

// docs/api/exports-import.md "Import": the reader takes what the export writes, in pieces of any size.
const cellText = fc.string({
  unit: fc.oneof(fc.constantFrom(',', '"', '\r', '\n', "'", '+', '='), fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' })),
  maxLength: 20,
})

/** Every record of `text`, fed to a reader in pieces cut at `cuts`. */
function read(text: string, cuts: number[] = []): string[][] {
  const reader = new CsvReader()
  const records: string[][] = []
  let from = 0
  for (const cut of [...cuts.filter((c) => c < text.length)].sort((a, b) => a - b)) {
    records.push(...reader.push(text.slice(from, cut)))
    from = Math.max(from, cut)
  }
  records.push(...reader.push(text.slice(from)), ...reader.end())
  return records
}

function failure(text: string): string {
  try {
    read(text)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidError)
    return (error as Error).message
  }
  throw new Error('read without an error')
}

describe('CsvReader', () => {
  test('reads back what the export writes, however the text is cut, inert formulas restored', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellText, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(200), { maxLength: 6 }),
        (rows, cuts) => {
          const records = read(rows.map(csvRecord).join(''), cuts)
          expect(records.map((record) => record.map(restoreFormula))).toEqual(rows)
        },
      ),
    )
  })

  test('takes LF line ends and a last record without one', () => {
    expect(read('a,b\n1,2\n"3",4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ])
  })

  test('names the row of bad CSV, counting from the first after the header', () => {
    expect(failure('a\n1\n"2')).toBe('Row 2 is not valid CSV: a quoted field is not closed')
    expect(failure('a\n1"2\n')).toBe('Row 1 is not valid CSV: a quote may only open a field')
    expect(failure('a\n"1"2\n')).toBe('Row 1 is not valid CSV: a quoted field must end at its closing quote')
    expect(failure('a\r1\n')).toBe('The header row is not valid CSV: a carriage return must be followed by a line feed')
    expect(failure('a\n\u0000\n')).toBe('Row 1 is not valid CSV: it holds a NUL character')
  })
})
