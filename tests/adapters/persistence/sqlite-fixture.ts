import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import type { RepositoryFixture } from './contract-context'

export interface SqliteFixture extends RepositoryFixture {
  persistence: SqliteDatabase
  path: string
}

/** A migrated SQLite database in a fresh temporary folder, removed by `cleanup`; a copy of `contents` when given. */
export async function makeSqlite(contents?: Uint8Array): Promise<SqliteFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'intake-contract-'))
  const path = join(dir, 'intake.sqlite')
  if (contents) writeFileSync(path, contents, { mode: 0o600 })
  const persistence = new SqliteDatabase(path)
  persistence.migrate()
  return {
    persistence,
    path,
    async cleanup() {
      await persistence.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
