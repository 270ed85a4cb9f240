import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEST_DATABASE } from '../support/http'
import { createTestDatabase } from '../support/postgres'
import { runCli } from './cli-process'

// `intake import` (docs/api/exports-import.md "Import"), as an operator runs it: SQLite, or PostgreSQL with TEST_DATABASE=postgres.
let dir: string
let env: Record<string, string>
let drop = async () => {}
const SLUG = 'import-cli'

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intake-import-'))
  if (TEST_DATABASE === 'postgres') {
    const database = await createTestDatabase()
    drop = database.drop
    env = { DATABASE_URL: database.url, JWT_SECRET: 'j'.repeat(64), DATA_ENCRYPTION_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent' }
  } else env = { DATABASE_URL: `sqlite:${join(dir, 'intake.sqlite')}`, LOG_LEVEL: 'silent' }
  const created = await runCli(
    [
      'org',
      'create',
      '--name',
      'Import CLI',
      '--slug',
      SLUG,
      '--admin-email',
      'admin@example.org',
      '--admin-password',
      'a long password here',
    ],
    env,
  )
  expect(created).toMatchObject({ code: 0 })
})
afterAll(async () => {
  await drop()
  rmSync(dir, { recursive: true, force: true })
})

function aFileOf(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('intake import', () => {
  test('a dry run, then the import with plain progress lines and a summary; a second run creates nothing', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => `Person${i},Cli,+1503556${String(i).padStart(4, '0')}`)
    const file = aFileOf('people.csv', `firstName,lastName,phone\n${rows.join('\n')}\n`)
    const args = ['import', 'constituents', '--org', SLUG, '--file', file]

    const dry = await runCli([...args, '--dry-run'], env)
    expect(dry.code).toBe(0)
    expect(dry.output).toContain(
      'Dry run of the import of constituents into import-cli (nothing stored): 1200 rows, 1200 created, 0 skipped, 0 refused.',
    )
    const first = await runCli(args, env)
    expect(first.code).toBe(0)
    // Not a terminal here: plain lines, up to all of the file read.
    expect(first.output).toMatch(/100% read, \d+ rows\ndone, 1200 rows\n/)
    expect(first.output).not.toContain('\r')
    expect(first.output).toContain('Imported constituents into import-cli: 1200 rows, 1200 created, 0 skipped, 0 refused.')
    expect((await runCli(args, env)).output).toContain('1200 rows, 0 created, 1200 skipped, 0 refused.')
  }, 60_000) // three processes, each reading 1,200 rows: past 30 s beside a second suite

  test('lists the refused rows by row and column and exits 1', async () => {
    const file = aFileOf('bad.csv', 'description,createdAt,status\nFood,2025-01-02,NEW\nRent,,OPEN\n')
    const run = await runCli(['import', 'needs', '--org', SLUG, '--file', file], env)
    expect(run.code).toBe(1)
    expect(run.output).toContain('2 rows, 1 created, 0 skipped, 1 refused.')
    expect(run.output).toContain('  row 2 createdAt: is required: the date the request was made')
    expect(run.output).toContain('  row 2 status: must be one of:')
  })

  test('says in one line what is wrong with the command, the file or the organization', async () => {
    expect(await runCli(['import', 'people', '--org', SLUG, '--file', 'x.csv'], env)).toMatchObject({ code: 1 })
    const missing = await runCli(['import', 'needs', '--org', SLUG, '--file', join(dir, 'nowhere.csv')], env)
    expect(missing).toMatchObject({ code: 1 })
    expect(missing.output.trim()).toBe(`No such file: ${join(dir, 'nowhere.csv')}`)
    const unknown = await runCli(['import', 'needs', '--org', 'no-such-org', '--file', aFileOf('one.csv', 'description\nx\n')], env)
    expect(unknown.output.trim()).toBe('Organization not found')
    const badCsv = await runCli(['import', 'constituents', '--org', SLUG, '--file', aFileOf('broken.csv', 'firstName\n"Ana\n')], env)
    expect(badCsv.output.trim()).toBe('Row 1 is not valid CSV: a quoted field is not closed')
  })
})
