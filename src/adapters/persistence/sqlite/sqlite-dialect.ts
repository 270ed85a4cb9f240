import { sql } from 'drizzle-orm'
import { driverError, type SqlDialect } from '../sql/sql-dialect'
import * as tables from './schema'
import { SqliteConstituentSearch } from './sqlite-constituent-search'

/** SQLite: FTS5 for search (sqlite-constituent-search.ts), no row locks (its transactions are serial), constraint errors by message. */
export const sqliteDialect: SqlDialect = {
  tables,
  ConstituentSearch: SqliteConstituentSearch,

  skipLocked: (query) => query,
  lockRow: (query) => query,
  jsonText: (column, path) => sql`json_extract(${column}, ${`$.${path.join('.')}`})`,
  // A bun:sqlite statement belongs to its connection; each connection has its own repositories and statements.
  bindStatement: (statement) => statement,
  // A trigger cannot set a column of the row it fires for in SQLite.
  numbersNeeds: false,

  uniqueViolation(error) {
    const message = String(driverError(error)?.message ?? '')
    const columns = /UNIQUE constraint failed: (.+)$/m.exec(message)?.[1]
    if (!columns) return undefined
    // "members.organization_id, members.email" → the column that makes it unique within the organization
    return (
      columns
        .split(', ')
        .filter((column) => !column.endsWith('.organization_id'))
        .join(', ') || columns
    )
  },
}
