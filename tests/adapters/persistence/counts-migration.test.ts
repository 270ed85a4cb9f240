import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/migrations'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { SQLITE_MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import type { Persistence } from '../../../src/application/ports/persistence'
import type { Migration } from '../../../src/adapters/persistence/sql/bundled-migrations'
import type { Organization } from '../../../src/domain/organizations/organization'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { createTestDatabase, postgresAvailable } from '../../support/postgres'
import { aConstituent, aHousehold } from './contract-support'

// List totals come from need_counts and constituent_counts, which triggers keep from the migration on: the needs a database held
// before it must be counted by the migration itself, or every total of an upgraded database is wrong.

type Migrating = Persistence & { migrate(migrations?: Migration[]): Promise<unknown> }
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** The columns every version of `organizations` has: later migrations add to it, which today's repositories write. */
const ORGANIZATION_ROW = 'INSERT INTO organizations (id, name, slug, max_concurrency, need_sequence, created_at) VALUES ($1, $2, $3, 5, 0, $4)'

async function needsStoredBeforeTheCounts(db: Migrating, migrations: Migration[], insertOrganization: (organization: Organization) => Promise<void>) {
  const countsAt = migrations.findIndex((m) => m.tag.endsWith('_need_counts'))
  expect(countsAt).toBeGreaterThan(0)
  await db.migrate(migrations.slice(0, countsAt))
  const organization = anOrganization()
  const [p1, p2] = [aPartner({ organizationId: organization.id }), aPartner({ organizationId: organization.id })]
  await insertOrganization(organization)
  await db.unitOfWork.run(async (r) => {
    await r.partners.insert(p1)
    await r.partners.insert(p2)
    for (const [partnerId, status] of [[p1.id, 'NEW'], [p1.id, 'NEW'], [p2.id, 'NEW'], [p2.id, 'RESOLVED']] as const) {
      await r.needs.insert(aNeed({ organizationId: organization.id, partnerId, status }))
    }
  })
  await db.migrate(migrations)
  const total = async (filter: object) => (await db.repositories.needs.list(organization.id, filter, { page: 1, limit: 1 })).total
  expect([await total({}), await total({ statuses: ['NEW'] }), await total({ partnerId: p2.id }), await total({ partnerId: p1.id, statuses: ['RESOLVED'] })]).toEqual([4, 3, 2, 0])
  await db.unitOfWork.run((r) => r.needs.insert(aNeed({ organizationId: organization.id, partnerId: p1.id, status: 'RESOLVED' })))
  expect(await total({ partnerId: p1.id, statuses: ['RESOLVED'] })).toBe(1)
}

describe('upgrading to need_counts', () => {
  test('SQLite: the needs already stored are counted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intake-counts-'))
    const path = join(dir, 'intake.sqlite')
    const db = new SqliteDatabase(path)
    cleanups.push(async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    })
    await needsStoredBeforeTheCounts(db, SQLITE_MIGRATIONS, async (o) => {
      const raw = new Database(path)
      raw.run(ORGANIZATION_ROW, [o.id, o.name, o.slug, o.createdAt.getTime()])
      raw.close()
    })
  })

  test.if(postgresAvailable())('PostgreSQL: the needs already stored are counted', async () => {
    const database = await createTestDatabase()
    const db = new PostgresDatabase(database.url)
    cleanups.push(async () => {
      await db.close()
      await database.drop()
    })
    await needsStoredBeforeTheCounts(db, POSTGRES_MIGRATIONS, async (o) => {
      const raw = postgres(database.url, { max: 1, onnotice: () => {} })
      await raw.unsafe(ORGANIZATION_ROW, [o.id, o.name, o.slug, o.createdAt])
      await raw.end()
    })
  })
})

// The total of the constituents list comes from constituent_counts, which triggers keep from its migration on.
async function constituentsStoredBeforeTheCounts(db: Migrating, migrations: Migration[]) {
  const countsAt = migrations.findIndex((m) => m.tag.endsWith('_constituent_counts'))
  expect(countsAt).toBeGreaterThan(0)
  await db.migrate(migrations.slice(0, countsAt))
  const [organization, other] = [anOrganization(), anOrganization()]
  const household = aHousehold({ organizationId: organization.id })
  const person = () => aConstituent({ organizationId: organization.id, householdId: household.id, firstName: 'Ana' })
  const [first, second, third] = [person(), person(), person()]
  await db.unitOfWork.run(async (r) => {
    for (const o of [organization, other]) await r.organizations.insert(o)
    await r.constituents.insertHousehold(household)
    for (const c of [first, second, third]) await r.constituents.insert(c)
  })
  await db.migrate(migrations)
  const total = async (organizationId: string) => (await db.repositories.constituents.search(organizationId, parseConstituentQuery(''), { page: 1, limit: 1 })).total
  expect([await total(organization.id), await total(other.id)]).toEqual([3, 0])

  await db.unitOfWork.run(async (r) => {
    await r.constituents.insert(person())
    await r.constituents.delete(organization.id, first.id)
    await r.constituents.delete(organization.id, second.id)
  })
  await expect(
    db.unitOfWork.run(async (r) => {
      await r.constituents.insert(person())
      throw new Error('undo')
    }),
  ).rejects.toThrow('undo')
  expect([await total(organization.id), await total(other.id)]).toEqual([2, 0])
}

describe('upgrading to constituent_counts', () => {
  test('SQLite: the constituents already stored are counted, and the count follows inserts, deletes and rollbacks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intake-counts-'))
    const db = new SqliteDatabase(join(dir, 'intake.sqlite'))
    cleanups.push(async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    })
    await constituentsStoredBeforeTheCounts(db, SQLITE_MIGRATIONS)
  })

  test.if(postgresAvailable())('PostgreSQL: the constituents already stored are counted, and the count follows inserts, deletes and rollbacks', async () => {
    const database = await createTestDatabase()
    const db = new PostgresDatabase(database.url)
    cleanups.push(async () => {
      await db.close()
      await database.drop()
    })
    await constituentsStoredBeforeTheCounts(db, POSTGRES_MIGRATIONS)
  })
})
