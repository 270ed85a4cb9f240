import { beforeEach, describe, expect, test } from 'bun:test'
import { IMPORT_BATCH_ROWS } from '../../../src/application/imports/record-import'
import { ForbiddenError, InvalidError, PayloadTooLargeError } from '../../../src/domain/errors'
import { IMPORT_LIMITS, REPORTED_ERRORS } from '../../../src/domain/imports/import'
import { aFile } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/exports-import.md "Import", on the in-memory adapters.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

const importing = (text: string | Uint8Array, dryRun = false, piece?: number) =>
  world.useCases.constituents.import.execute(world.admin, aFile(text, piece), { dryRun })

const everyone = async () =>
  (await world.repositories.constituents.search(world.organizationId, { kind: 'all' }, { page: 1, limit: 100 })).items

const FILE = [
  'firstName,lastName,phone,email,dateOfBirth',
  'Ana,Lima,+15035550101,,',
  'Ben,Okafor,,BEN@example.org,',
  'Cleo,Park,,,1990-02-30',
  'Ana,Lima,+15035550101,,',
  'Dee,Lima,,ben@example.org,',
  ',,,,',
  'Eve,,,,',
].join('\n')

describe('ImportConstituents', () => {
  test('creates the valid rows, skips the same person again in the file, and reports the rest by row and field', async () => {
    const report = await importing(FILE)
    expect(report).toEqual({
      dryRun: false,
      rows: 6,
      created: 3,
      skipped: 2,
      errors: [{ row: 3, field: 'dateOfBirth', message: 'must be a real date written YYYY-MM-DD' }],
      columns: { matched: ['firstName', 'lastName', 'phone', 'email', 'dateOfBirth'].map((c) => ({ header: c, column: c })), unknown: [] },
    })
    expect((await everyone()).map((c) => c.firstName).sort()).toEqual(['Ana', 'Ben', 'Eve'])
  })

  test('a second run creates nothing; a dry run stores nothing and answers what the run does', async () => {
    const dry = await importing(FILE, true)
    expect(await everyone()).toEqual([])
    const first = await importing(FILE)
    expect(dry).toEqual({ ...first, dryRun: true })
    const again = await importing(FILE)
    expect(again).toEqual({ ...first, created: 0, skipped: first.created + first.skipped })
    expect(await everyone()).toHaveLength(3)
  })

  test('reads a file arriving in small pieces that split characters, quoted fields and line ends, after a byte-order mark', async () => {
    const text = '\uFEFFfirstName,lastName,addressStreet\r\n"Zoë ""Z""",Ñúñez,"4 Elm St\r\nUnit 5"\r\n'
    expect(await importing(text, false, 3)).toMatchObject({ rows: 1, created: 1, errors: [] })
    expect(await everyone()).toEqual([
      expect.objectContaining({ firstName: 'Zoë "Z"', lastName: 'Ñúñez', addressStreet: '4 Elm St\r\nUnit 5' }),
    ])
  })

  test('creates in batches: a file of several batches creates every row once', async () => {
    const rows = Array.from({ length: IMPORT_BATCH_ROWS * 2 + 7 }, (_, i) => `P${i},Batch,+1503555${String(i).padStart(4, '0')}`)
    const report = await importing(`firstName,lastName,phone\n${rows.join('\n')}\n`)
    expect(report).toMatchObject({ rows: rows.length, created: rows.length, skipped: 0 })
    const { total } = await world.repositories.constituents.search(world.organizationId, { kind: 'all' }, { page: 1, limit: 1 })
    expect(total).toBe(rows.length)
  })

  test('lists the first errors only, however many rows are refused', async () => {
    const report = await importing(`phone\n${'nope\n'.repeat(REPORTED_ERRORS + 5)}`, true)
    expect(report.rows - report.created - report.skipped).toBe(REPORTED_ERRORS + 5)
    expect(report.errors).toHaveLength(REPORTED_ERRORS)
  })

  test('refuses more rows or bytes than the limits with a PayloadTooLargeError that says how far it got', async () => {
    const rows = await failureOf(importing(`firstName\n${'A\n'.repeat(IMPORT_LIMITS.maxRows + 1)}`, true), PayloadTooLargeError)
    expect(rows.message).toContain(`at most ${IMPORT_LIMITS.maxRows} rows`)
    // One quoted cell that never ends before the limit: the bytes are counted as they arrive.
    const bytes = await failureOf(
      importing(`firstName\n"${'A'.repeat(IMPORT_LIMITS.maxBytes)}"\n`, false, 1024 * 1024),
      PayloadTooLargeError,
    )
    expect(bytes.message).toBe(`The file may be at most ${IMPORT_LIMITS.maxBytes} bytes (10 MiB): split it`)
    expect(await everyone()).toEqual([])
  })

  test('refuses bad CSV with the row it is on, having imported the rows before it (as a dry run checks them), and says so', async () => {
    const good = Array.from({ length: IMPORT_BATCH_ROWS + 200 }, (_, i) => `P${i},Fault,+1503559${String(i).padStart(4, '0')}`)
    const file = `firstName,lastName,phone\n${good.join('\n')}\nBen,x"y,\nZed,Later,\n`
    const dry = await failureOf(importing(file, true, 4096), InvalidError)
    expect(dry.message).toBe(
      `Row ${good.length + 1} is not valid CSV: a quote may only open a field; rows 1 to ${good.length} were checked, the rest was not read`,
    )
    expect(await everyone()).toEqual([])
    const real = await failureOf(importing(file, false, 4096), InvalidError)
    expect(real.message).toBe(
      `Row ${good.length + 1} is not valid CSV: a quote may only open a field; rows 1 to ${good.length} were imported, the rest was not read`,
    )
    const { total } = await world.repositories.constituents.search(world.organizationId, { kind: 'all' }, { page: 1, limit: 1 })
    expect(total).toBe(good.length)
    // The file mended and imported again takes the rest only.
    expect(await importing(file.replace('x"y', 'Xy'))).toMatchObject({ created: 2, skipped: good.length })
    const { items } = await world.repositories.auditEvents.list(world.organizationId, { action: 'import' }, { page: 1, limit: 10 })
    expect(items.map((e) => [e.fields, e.counts])).toEqual([
      [['constituents'], { rows: good.length + 2, created: 2, skipped: good.length, refused: 0 }],
      [['constituents'], { rows: good.length, created: good.length, skipped: 0, refused: 0 }],
    ])
  })

  test('bad CSV before any row is taken in is said alone', async () => {
    const error = await failureOf(importing('firstName,lastName\nBen,x"y\n'), InvalidError)
    expect(error.message).toBe('Row 1 is not valid CSV: a quote may only open a field')
  })

  test('an organization’s people are no reason to skip a row of another’s import', async () => {
    const other = await world.otherOrganization()
    await other.useCases.constituents.import.execute(other.admin, aFile(FILE), { dryRun: false })
    expect(await importing(FILE)).toMatchObject({ created: 3, skipped: 2 })
  })

  test('org_admin only', async () => {
    const staff = await world.member('staff', { profiles: ['pii_reader', 'intake_staff', 'duplicate_resolver'] })
    await failureOf(world.useCases.constituents.import.execute(staff, aFile(FILE), { dryRun: true }), ForbiddenError)
  })
})
