import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import type { RepositoryFixture } from './repository-contract'

export interface SqliteFixture extends RepositoryFixture {
  persistence: SqliteDatabase
  path: string
}

/** A migrated SQLite database in a fresh temporary folder, removed by `cleanup`. */
export async function makeSqlite(): Promise<SqliteFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'intake-contract-'))
  const path = join(dir, 'intake.sqlite')
  const persistence = new SqliteDatabase(path)
  persistence.migrate()
  // No port writes constituents or households yet: a third connection inserts them raw.
  let raw: Database | undefined
  const rawDb = () => {
    raw ??= new Database(path, { strict: true })
    raw.exec('PRAGMA busy_timeout = 5000')
    return raw
  }
  return {
    persistence,
    path,
    async cleanup() {
      raw?.close()
      await persistence.close()
      rmSync(dir, { recursive: true, force: true })
    },
    seed: {
      async household({ id, organizationId, createdAt }) {
        rawDb().query('INSERT INTO households (id, organization_id, created_at) VALUES ($id, $organizationId, $createdAt)').run({
          id,
          organizationId,
          createdAt: createdAt.getTime(),
        })
      },
      async constituent({ id, organizationId, householdId, createdAt }) {
        rawDb()
          .query('INSERT INTO constituents (id, organization_id, household_id, created_at) VALUES ($id, $organizationId, $householdId, $createdAt)')
          .run({ id, organizationId, householdId, createdAt: createdAt.getTime() })
      },
    },
  }
}
