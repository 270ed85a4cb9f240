import { expect, test } from 'bun:test'
import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as pg from '../../../src/adapters/persistence/postgres/schema'
import * as sqlite from '../../../src/adapters/persistence/sqlite/schema'

// One set of repositories serves both databases, so their schemas must describe the same tables: same columns
// (by name, kind of value, nullability, key), indexes (name, uniqueness, columns, partial or not) and foreign keys.
// Checked from Drizzle's table configs, without a database.

type Config = ReturnType<typeof sqliteTableConfig> | ReturnType<typeof pgTableConfig>

function shape(config: Config, nameOf: (table: unknown) => string) {
  return {
    columns: config.columns.map((c) => `${c.name}: ${c.dataType}${c.notNull ? '' : '?'}${c.primary ? ' primary key' : ''}`).sort(),
    indexes: config.indexes
      .map(
        (i) =>
          `${i.config.name}${i.config.unique ? ' unique' : ''} (${i.config.columns.map((c) => ('name' in c ? c.name : 'expression')).join(', ')})${i.config.where ? ' partial' : ''}`,
      )
      .sort(),
    foreignKeys: config.foreignKeys
      .map((f) => f.reference())
      .map((r) => `${r.columns.map((c) => c.name).join(', ')} → ${nameOf(r.foreignTable)}`)
      .sort(),
    primaryKeys: config.primaryKeys.map((k) => k.columns.map((c) => c.name).join(', ')).sort(),
    unique: config.columns
      .filter((c) => c.isUnique)
      .map((c) => c.name)
      .sort(),
  }
}

/**
 * What each database does its own way on purpose: word-prefix search over constituents is a GIN index in
 * PostgreSQL and an FTS5 table (written in SQLite's migration, outside Drizzle's schema) in SQLite.
 */
const POSTGRES_ONLY_INDEXES = ['constituents_search (expression)']

const sqliteTables = Object.fromEntries(Object.entries(sqlite).filter(([, v]) => v instanceof SQLiteTable)) as Record<string, SQLiteTable>
const pgTables = Object.fromEntries(Object.entries(pg).filter(([, v]) => v instanceof PgTable)) as Record<string, PgTable>

test('both schemas define the same tables', () => {
  expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort())
  expect(Object.keys(sqliteTables).length).toBeGreaterThan(10)
})

test.each(Object.keys(sqliteTables))('%s: the same columns, indexes and keys in SQLite and PostgreSQL', (name) => {
  const inSqlite = shape(sqliteTableConfig(sqliteTables[name]!), (t) => sqliteTableConfig(t as SQLiteTable).name)
  const inPg = shape(pgTableConfig(pgTables[name]!), (t) => pgTableConfig(t as PgTable).name)
  inPg.indexes = inPg.indexes.filter((index) => !POSTGRES_ONLY_INDEXES.includes(index))
  expect(sqliteTableConfig(sqliteTables[name]!).name).toBe(pgTableConfig(pgTables[name]!).name)
  expect(inPg).toEqual(inSqlite)
  expect(inSqlite.columns.length).toBeGreaterThan(0)
})
