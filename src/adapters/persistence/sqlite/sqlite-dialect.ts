import { and, sql } from 'drizzle-orm'
import type { ConstituentQuery } from '../../../domain/constituents/search'
import { driverError, queryPrefixes, type SqlDialect } from '../sql/sql-dialect'
import * as tables from './schema'

const c = tables.constituents

/** Every word a quoted prefix: user input never becomes FTS syntax. */
function ftsMatch(organizationId: string, query: Extract<ConstituentQuery, { kind: 'phone' | 'words' }>): string {
  return queryPrefixes(organizationId, query)
    .map((p) => `"${p.replace(/"/g, '""')}"*`)
    .join(' AND ')
}

/** SQLite: FTS5 for search, no row locks (its transactions are serial), constraint errors by message. */
export const sqliteDialect: SqlDialect = {
  tables,

  searchMatch: (organizationId, query) => (query.kind === 'email' ? query.email : ftsMatch(organizationId, query)),

  constituentSearch(organizationId, match, kind, manyMatches) {
    // Few matches: they are found by an index first, then read by their seq; the unary + keeps SQLite from
    // walking the organization's rows in list order (constituents_newest) and testing each. Many matches: that
    // walk is what finds a page soonest (25 rows of a common surname among 100,000 in a few milliseconds).
    const organization = manyMatches ? sql`${c.organizationId} = ${organizationId}` : sql`+${c.organizationId} = ${organizationId}`
    const matching = (seqs: ReturnType<typeof sql>) => and(organization, sql`${c.seq} IN (${seqs})`)!
    if (kind === 'email') return matching(sql`SELECT seq FROM constituents WHERE organization_id = ${organizationId} AND email_key = ${match}`)
    return matching(sql`SELECT rowid FROM constituent_search WHERE constituent_search MATCH ${match}`)
  },

  // Every term carries its organization's mark, so the index's own count is the organization's.
  countSearchMatches: (match, kind) => (kind === 'email' ? undefined : sql`SELECT count(*) AS n FROM constituent_search WHERE constituent_search MATCH ${match}`),

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

