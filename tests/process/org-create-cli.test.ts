import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from './cli-process'

// `intake org create --language` (docs/api/needs.md "Partners"): the default partner named in the organization's language.
const dir = mkdtempSync(join(tmpdir(), 'intake-org-create-'))
const file = join(dir, 'intake.sqlite')
const env = { DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'silent' }
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const create = (slug: string, language: string) =>
  runCli(
    [
      'org',
      'create',
      '--name',
      'Banco',
      '--slug',
      slug,
      '--admin-email',
      `admin@${slug}.example.org`,
      '--admin-password',
      'a long password here',
      '--language',
      language,
    ],
    env,
  )

test('--language es names the default partner in Spanish; a language the service does not speak is refused', async () => {
  expect(await create('banco', 'es')).toMatchObject({ code: 0 })
  const refused = await create('banque', 'fr')
  expect(refused.code).toBe(1)
  expect(refused.output).toContain('--language: must be one of: en, es')

  const db = new Database(file, { readonly: true })
  const partners = db.query('SELECT p.name FROM partners p JOIN organizations o ON o.id = p.organization_id WHERE p.is_default = 1').all()
  db.close()
  expect(partners).toEqual([{ name: 'Recepción general' }])
})
