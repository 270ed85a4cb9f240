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
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import type { Need } from '../../../src/domain/needs/need'
import { searchTermsColumn } from '../../../src/adapters/persistence/sql/constituent-search'
import { createTestDatabase } from '../../support/postgres'

/** An empty database of either kind, for a test that migrates it step by step, as an upgrade would. */
export interface MigratingDatabase {
  kind: 'sqlite' | 'postgres'
  db: Persistence & { migrate(migrations?: Migration[]): Promise<unknown> }
  migrations: Migration[]
  /** One statement with positional parameters ($1, $2…) on a connection of its own: rows as an older version wrote them. */
  run(statement: string, values: unknown[]): Promise<void>
  /** The rows of one query, on a connection of its own: what a migration left. */
  rows(query: string): Promise<Array<Record<string, unknown>>>
  /** An organization as every version stored it: today's repositories write columns later migrations add. */
  insertOrganization(organization: Organization): Promise<void>
  /** A constituent as every version stored it, its search terms as today's repositories write them. */
  insertConstituent(constituent: Constituent): Promise<void>
  /** A need as every version stored it (its required columns and due date). */
  insertNeed(need: Need): Promise<void>
  cleanup(): Promise<void>
}

/** The columns every version of `organizations` has. */
const ORGANIZATION_ROW =
  'INSERT INTO organizations (id, name, slug, max_concurrency, need_sequence, created_at) VALUES ($1, $2, $3, 5, 0, $4)'
const CONSTITUENT_ROW = `INSERT INTO constituents
  (id, organization_id, household_id, first_name, last_name, phone, email, email_key, created_at, updated_at, search_terms)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`
const NEED_ROW = `INSERT INTO needs
  (id, organization_id, partner_id, status, custom_fields, is_confidential, created_at, updated_at, reference_number, due_date)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`

function constituentValues(c: Constituent): unknown[] {
  const { firstName, lastName, phone, email } = c
  const contact = [firstName, lastName, phone, email].map((value) => value ?? null)
  const emailKey = matchKeysOf(c).email ?? null
  return [c.id, c.organizationId, c.householdId, ...contact, emailKey, c.createdAt, c.updatedAt, searchTermsColumn(c)]
}

function needValues(n: Need): unknown[] {
  const { id, organizationId, partnerId, status, customFields, isConfidential, createdAt, updatedAt, referenceNumber } = n
  const dueDate = n.dueDate ?? null
  return [
    id,
    organizationId,
    partnerId,
    status,
    JSON.stringify(customFields),
    isConfidential,
    createdAt,
    updatedAt,
    referenceNumber,
    dueDate,
  ]
}

/** SQLite's forms of the values: times as milliseconds, booleans as 0 and 1. */
const sqliteValues = (values: unknown[]) =>
  values.map((value) => (value instanceof Date ? value.getTime() : typeof value === 'boolean' ? Number(value) : value))

export function migratingSqlite(): MigratingDatabase & { path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'intake-migrating-'))
  const path = join(dir, 'intake.sqlite')
  const db = new SqliteDatabase(path)
  const rows = async (statement: string, values: unknown[] = []) => {
    const raw = new Database(path)
    const found = raw.query(statement).all(...(values as never[])) as Array<Record<string, unknown>>
    raw.close()
    return found
  }
  const run = async (statement: string, values: unknown[]) => void (await rows(statement, values))
  return {
    kind: 'sqlite',
    path,
    db,
    migrations: SQLITE_MIGRATIONS,
    run,
    rows,
    insertOrganization: (o) => run(ORGANIZATION_ROW, [o.id, o.name, o.slug, o.createdAt.getTime()]),
    insertConstituent: (c) => run(CONSTITUENT_ROW, sqliteValues(constituentValues(c))),
    insertNeed: (n) => run(NEED_ROW, sqliteValues(needValues(n))),
    async cleanup() {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function migratingPostgres(): Promise<MigratingDatabase> {
  const database = await createTestDatabase()
  const db = new PostgresDatabase(database.url)
  const rows = async (statement: string, values: unknown[] = []) => {
    const raw = postgres(database.url, { max: 1, onnotice: () => {} })
    const found = [...(await raw.unsafe(statement, values as never))] as Array<Record<string, unknown>>
    await raw.end()
    return found
  }
  const run = async (statement: string, values: unknown[]) => void (await rows(statement, values))
  return {
    kind: 'postgres',
    db,
    migrations: POSTGRES_MIGRATIONS,
    run,
    rows,
    insertOrganization: (o) => run(ORGANIZATION_ROW, [o.id, o.name, o.slug, o.createdAt]),
    insertConstituent: (c) => run(CONSTITUENT_ROW, constituentValues(c)),
    insertNeed: (n) => run(NEED_ROW, needValues(n)),
    async cleanup() {
      await db.close()
      await database.drop()
    },
  }
}
