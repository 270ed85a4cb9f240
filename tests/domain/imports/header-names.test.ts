import { describe, expect, test } from 'bun:test'
import { CONSTITUENT_IMPORT_COLUMNS } from '../../../src/application/constituents/constituent-importer'
import { NEED_IMPORT_COLUMNS } from '../../../src/application/needs/need-importer'
import { columnNamed, HEADER_ALIASES, headerKey } from '../../../src/domain/imports/header-names'

// docs/api/exports-import.md "Header names"
describe('header names', () => {
  test('a common name is its column in any case, spacing or punctuation', () => {
    const read = CONSTITUENT_IMPORT_COLUMNS.read
    const cases: Array<[string, string]> = [
      ['First Name', 'firstName'],
      ['first_name', 'firstName'],
      ['FIRST-NAME', 'firstName'],
      ['Given name', 'firstName'],
      ['Phone Number', 'phone'],
      ['mobile', 'phone'],
      ['Zip', 'addressZip'],
      ['Zip Code', 'addressZip'],
      ['postal code', 'addressZip'],
      ['E-mail', 'email'],
      ['Teléfono', 'phone'],
      ['telefono', 'phone'],
      ['dateOfBirth', 'dateOfBirth'],
    ]
    for (const [header, column] of cases) expect([header, columnNamed(header, read)]).toEqual([header, column])
    expect(columnNamed('Shoe size', read)).toBeUndefined()
    expect(columnNamed('', read)).toBeUndefined()
  })

  test('no name means two columns, and every aliased column is one an import reads', () => {
    const columns = [...CONSTITUENT_IMPORT_COLUMNS.read, ...NEED_IMPORT_COLUMNS.read]
    expect(Object.keys(HEADER_ALIASES).filter((column) => !columns.includes(column))).toEqual([])
    // A name may repeat its own column's ("First Name" is firstName already), never another's.
    const keys = columns.flatMap((column) => [...new Set([column, ...(HEADER_ALIASES[column] ?? [])].map(headerKey))])
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([])
  })
})
