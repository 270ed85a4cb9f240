import { and, sql } from 'drizzle-orm'
import { driverError, organizationToken, queryPrefixes, type SqlDialect } from '../sql/sql-dialect'
import * as tables from './schema'

const c = tables.constituents

/** SQLite: FTS5 for search, no row locks (its transactions are serial), constraint errors by message. */
export const sqliteDialect: SqlDialect = {
  tables,

  constituentSearch(organizationId, query) {
    // The matching rows are found by an index first, then read by their seq. The unary + keeps SQLite from
    // walking every row of the organization in list order (constituents_newest) and testing each instead.
    const matching = (seqs: ReturnType<typeof sql>) => and(sql`+${c.organizationId} = ${organizationId}`, sql`${c.seq} IN (${seqs})`)!
    if (query.kind === 'email') {
      return matching(sql`SELECT seq FROM constituents WHERE organization_id = ${organizationId} AND email_key = ${query.email}`)
    }
    // Every word a quoted prefix: user input never becomes FTS syntax.
    const match = [`"${organizationToken(organizationId)}"`, ...queryPrefixes(query).map((p) => `"${p.replace(/"/g, '""')}"*`)].join(' AND ')
    return matching(sql`SELECT rowid FROM constituent_search WHERE constituent_search MATCH ${match}`)
  },

  skipLocked: (query) => query,
  lockRow: (query) => query,
  // A bun:sqlite statement belongs to its connection; each connection has its own repositories and statements.
  bindStatement: (statement) => statement,

  uniqueViolation(error) {
    const message = String(driverError(error)?.message ?? '')
    const columns = /UNIQUE constraint failed: (.+)$/m.exec(message)?.[1]
    if (!columns) return undefined
    // "members.organization_id, members.email" → the column that makes it unique within the organization
    return columns.split(', ').filter((column) => !column.endsWith('.organization_id')).join(', ') || columns
  },
}

