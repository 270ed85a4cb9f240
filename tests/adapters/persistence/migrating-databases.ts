import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/migrations'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import type { Migration } from '../../../src/adapters/persistence/sql/bundled-migrations'
import { SQLITE_MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import type { Persistence } from '../../../src/application/ports/persistence'
import type { Organization } from '../../../src/domain/organizations/organization'
import { createTestDatabase } from '../../support/postgres'

/** An empty database of either kind, for a test that migrates it step by step, as an upgrade would. */
export interface MigratingDatabase {
  kind: 'sqlite' | 'postgres'
  db: Persistence & { migrate(migrations?: Migration[]): Promise<unknown> }
  migrations: Migration[]
  /** One statement with positional parameters ($1, $2…) on a connection of its own: rows as an older version wrote them. */
  run(statement: string, values: unknown[]): Promise<void>
  /** An organization as every version stored it: today's repositories write columns later migrations add. */
  insertOrganization(organization: Organization): Promise<void>
  cleanup(): Promise<void>
}

/** The columns every version of `organizations` has. */
const ORGANIZATION_ROW =
  'INSERT INTO organizations (id, name, slug, max_concurrency, need_sequence, created_at) VALUES ($1, $2, $3, 5, 0, $4)'

export function migratingSqlite(): MigratingDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'intake-migrating-'))
  const path = join(dir, 'intake.sqlite')
  const db = new SqliteDatabase(path)
  const run = async (statement: string, values: unknown[]) => {
    const raw = new Database(path)
    raw.run(statement, values as never)
    raw.close()
  }
  return {
    kind: 'sqlite',
    db,
    migrations: SQLITE_MIGRATIONS,
    run,
    insertOrganization: (o) => run(ORGANIZATION_ROW, [o.id, o.name, o.slug, o.createdAt.getTime()]),
    async cleanup() {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function migratingPostgres(): Promise<MigratingDatabase> {
  const database = await createTestDatabase()
  const db = new PostgresDatabase(database.url)
  const run = async (statement: string, values: unknown[]) => {
    const raw = postgres(database.url, { max: 1, onnotice: () => {} })
    await raw.unsafe(statement, values as never)
    await raw.end()
  }
  return {
    kind: 'postgres',
    db,
    migrations: POSTGRES_MIGRATIONS,
    run,
    insertOrganization: (o) => run(ORGANIZATION_ROW, [o.id, o.name, o.slug, o.createdAt]),
    async cleanup() {
      await db.close()
      await database.drop()
    },
  }
}
