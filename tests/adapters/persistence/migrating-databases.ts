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
import type { OldRow } from './old-rows'

/**
 * An empty database of either kind, for a test that migrates it step by step, as an upgrade would: the rows an
 * older version left are seeded in its SQL (old-rows.ts), and today's repositories read and write only once the
 * database is migrated on.
 */
export interface MigratingDatabase {
  kind: 'sqlite' | 'postgres'
  db: Persistence & { migrate(migrations?: Migration[]): Promise<unknown> }
  migrations: Migration[]
  /** Migrates the empty database up to the migration whose tag ends so, not applying it: its index is returned. */
  migrateToBefore(tagEnd: string): Promise<number>
  /** Statements run in order on a connection of their own: rows as an older version wrote them. */
  seed(...rows: OldRow[]): Promise<void>
  /** The rows of one query, on a connection of its own: what a migration left. */
  rows(query: string): Promise<Array<Record<string, unknown>>>
  cleanup(): Promise<void>
}

/** SQLite's forms of the values: times as milliseconds, booleans as 0 and 1. */
const sqliteValues = (values: unknown[]) =>
  values.map((value) => (value instanceof Date ? value.getTime() : typeof value === 'boolean' ? Number(value) : value))

function migratingTo(db: MigratingDatabase['db'], migrations: Migration[]) {
  return async (tagEnd: string) => {
    const at = migrations.findIndex((m) => m.tag.endsWith(tagEnd))
    if (at <= 0) throw new Error(`no migration after the first ends with ${tagEnd}`)
    await db.migrate(migrations.slice(0, at))
    return at
  }
}

export function migratingSqlite(): MigratingDatabase & { path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'intake-migrating-'))
  const path = join(dir, 'intake.sqlite')
  const db = new SqliteDatabase(path)
  const onOwnConnection = <T>(use: (raw: Database) => T): T => {
    const raw = new Database(path)
    try {
      return use(raw)
    } finally {
      raw.close()
    }
  }
  return {
    kind: 'sqlite',
    path,
    db,
    migrations: SQLITE_MIGRATIONS,
    migrateToBefore: migratingTo(db, SQLITE_MIGRATIONS),
    seed: async (...rows) =>
      onOwnConnection((raw) => {
        for (const [statement, values] of rows) raw.query(statement).run(...(sqliteValues(values) as never[]))
      }),
    rows: async (query) => onOwnConnection((raw) => raw.query(query).all() as Array<Record<string, unknown>>),
    async cleanup() {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function migratingPostgres(): Promise<MigratingDatabase> {
  const database = await createTestDatabase()
  const db = new PostgresDatabase(database.url)
  const onOwnConnection = async <T>(use: (raw: postgres.Sql) => Promise<T>): Promise<T> => {
    const raw = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      return await use(raw)
    } finally {
      await raw.end()
    }
  }
  return {
    kind: 'postgres',
    db,
    migrations: POSTGRES_MIGRATIONS,
    migrateToBefore: migratingTo(db, POSTGRES_MIGRATIONS),
    seed: (...rows) =>
      onOwnConnection(async (raw) => {
        for (const [statement, values] of rows) await raw.unsafe(statement, values as never)
      }),
    rows: (query) => onOwnConnection(async (raw) => [...(await raw.unsafe(query))] as Array<Record<string, unknown>>),
    async cleanup() {
      await db.close()
      await database.drop()
    },
  }
}
