import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/migrations'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { SQLITE_MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import type { Persistence } from '../../../src/application/ports/persistence'
import type { Migration } from '../../../src/adapters/persistence/sql/bundled-migrations'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { createTestDatabase, postgresAvailable } from '../../support/postgres'

// List totals come from need_counts, which triggers keep from the migration on: the needs a database held
// before it must be counted by the migration itself, or every total of an upgraded database is wrong.

type Migrating = Persistence & { migrate(migrations?: Migration[]): Promise<unknown> }
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function needsStoredBeforeTheCounts(db: Migrating, migrations: Migration[]) {
  const countsAt = migrations.findIndex((m) => m.tag.endsWith('_need_counts'))
  expect(countsAt).toBeGreaterThan(0)
  await db.migrate(migrations.slice(0, countsAt))
  const organization = anOrganization()
  const [p1, p2] = [aPartner({ organizationId: organization.id }), aPartner({ organizationId: organization.id })]
  await db.unitOfWork.run(async (r) => {
    await r.organizations.insert(organization)
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
    const db = new SqliteDatabase(join(dir, 'intake.sqlite'))
    cleanups.push(async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    })
    await needsStoredBeforeTheCounts(db, SQLITE_MIGRATIONS)
  })

  test.if(postgresAvailable())('PostgreSQL: the needs already stored are counted', async () => {
    const database = await createTestDatabase()
    const db = new PostgresDatabase(database.url)
    cleanups.push(async () => {
      await db.close()
      await database.drop()
    })
    await needsStoredBeforeTheCounts(db, POSTGRES_MIGRATIONS)
  })
})
