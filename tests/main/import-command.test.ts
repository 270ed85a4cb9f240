import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importCommandOf, runImport, summaryOf, type ImportCommand } from '../../src/main/import-command'
import { createWorld, type World } from '../support/world'

// `intake import` (docs/api/exports-import.md "Import"): its arguments, its progress on a terminal and off one, its summary.
let world: World
let dir: string
let slug: string
beforeAll(async () => {
  world = await createWorld()
  slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
  dir = mkdtempSync(join(tmpdir(), 'intake-import-command-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function command(rows: number, dryRun = true): ImportCommand {
  const file = join(dir, `${rows}.csv`)
  const lines = Array.from({ length: rows }, (_, i) => `P${i},Command,+1503557${String(i).padStart(4, '0')}`)
  writeFileSync(file, `firstName,lastName,phone\n${lines.join('\n')}\nBad,Row,555\n`)
  return { kind: 'constituents', org: slug, file, dryRun }
}

async function run(cmd: ImportCommand, isTTY: boolean) {
  const written: string[] = []
  const report = await runImport(world.useCases.operations.importFile, cmd, { isTTY, write: (text) => void written.push(text) })
  return { report, written }
}

describe('intake import', () => {
  test('reads its arguments, and says what is missing', () => {
    expect(importCommandOf(['needs', '--org', 'a', '--file', 'f.csv', '--dry-run'])).toEqual({
      kind: 'needs',
      org: 'a',
      file: 'f.csv',
      dryRun: true,
    })
    expect(importCommandOf(['constituents', '--org', 'a', '--file', 'f.csv'])).toMatchObject({ dryRun: false })
    expect(importCommandOf(['people', '--org', 'a', '--file', 'f.csv'])).toBe('Say what to import: constituents or needs')
    expect(importCommandOf(['needs', '--org', 'a'])).toBe('Missing: --org and --file are required')
  })

  test('on a terminal, redraws one bar in place on stderr and ends its line', async () => {
    const { report, written } = await run(command(1200), true)
    expect(report).toMatchObject({ rows: 1201, created: 1200 })
    expect(written.length).toBeGreaterThan(1)
    for (const text of written.slice(0, -1)) expect(text).toMatch(/^\r\[[#.]{30}\] \d+% \d+ rows$/)
    expect(written.at(-2)).toBe(`\r[${'#'.repeat(30)}] 100% 1201 rows`)
    expect(written.at(-1)).toBe('\n')
  })

  test('off a terminal, writes plain lines, and the summary lists each refused row', async () => {
    const cmd = command(10)
    const { report, written } = await run(cmd, false)
    expect(written.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true)
    expect(written.at(-1)).toBe('done, 11 rows\n')
    expect(summaryOf(cmd, report)).toBe(
      [
        `Dry run of the import of constituents into ${slug} (nothing stored): 11 rows, 10 created, 0 skipped, 1 refused.`,
        '  row 11 phone: must be a phone number, e.g. +1 503 555 0142 or 503 555 0142',
      ].join('\n'),
    )
  })
})
