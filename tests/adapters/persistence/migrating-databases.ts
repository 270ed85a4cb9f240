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
import { createTestDatabase } from '../../support/postgres'

/** An empty database of either kind, for a test that migrates it step by step, as an upgrade would. */
export interface MigratingDatabase {
  kind: 'sqlite' | 'postgres'
  db: Persistence & { migrate(migrations?: Migration[]): Promise<unknown> }
  migrations: Migration[]
  /** One statement with positional parameters ($1, $2…) on a connection of its own: rows as an older version wrote them. */
  run(statement: string, values: unknown[]): Promise<void>
  cleanup(): Promise<void>
}

export function migratingSqlite(): MigratingDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'intake-migrating-'))
  const path = join(dir, 'intake.sqlite')
  const db = new SqliteDatabase(path)
  return {
    kind: 'sqlite',
    db,
    migrations: SQLITE_MIGRATIONS,
    async run(statement, values) {
      const raw = new Database(path)
      raw.run(statement, values as never)
      raw.close()
    },
    async cleanup() {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function migratingPostgres(): Promise<MigratingDatabase> {
  const database = await createTestDatabase()
  const db = new PostgresDatabase(database.url)
  return {
    kind: 'postgres',
    db,
    migrations: POSTGRES_MIGRATIONS,
    async run(statement, values) {
      const raw = postgres(database.url, { max: 1, onnotice: () => {} })
      await raw.unsafe(statement, values as never)
      await raw.end()
    },
    async cleanup() {
      await db.close()
      await database.drop()
    },
  }
}
