import { afterAll, describe, expect, test } from 'bun:test'
import { ConflictError } from '../../../src/domain/errors'
import { anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { rejectionOf } from './contract-support'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldOrganization } from './old-rows'

// Migration `organization_slug_history` keeps every slug an organization holds or held: an organization stored
// before it holds its slug at once, so the slug it leaves after the upgrade stays its own.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function organizationsStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed, rows }: MigratingDatabase) {
  await migrateToBefore('_organization_slug_history')
  const [leaving, other] = [anOrganization(), anOrganization()]
  await seed(oldOrganization(leaving), oldOrganization(other))

  await db.migrate(migrations)
  const held = await rows(`SELECT slug, organization_id FROM organization_slugs WHERE organization_id IN ('${leaving.id}', '${other.id}')`)
  expect(held.map((row) => `${row.slug} ${row.organization_id}`).sort()).toEqual(
    [`${leaving.slug} ${leaving.id}`, `${other.slug} ${other.id}`].sort(),
  )
  const upgraded = (await db.repositories.organizations.findById(leaving.id))!
  const renamed = { ...upgraded, slug: `renamed-${leaving.id.slice(0, 8)}` }
  await db.unitOfWork.run((r) => r.organizations.update(renamed))

  expect(await db.repositories.organizations.findByAnySlug(leaving.slug)).toEqual(renamed)
  const otherNow = (await db.repositories.organizations.findById(other.id))!
  const taking = await rejectionOf(db.unitOfWork.run((r) => r.organizations.update({ ...otherNow, slug: leaving.slug })))
  expect(taking).toBeInstanceOf(ConflictError)
}

describe('upgrading to the slug history', () => {
  test('SQLite: organizations stored before hold their slugs, and one left stays its own', async () => {
    const database = migratingSqlite()
    cleanups.push(database.cleanup)
    await organizationsStoredBeforeTheMigration(database)
  })

  test.if(postgresAvailable())('PostgreSQL: organizations stored before hold their slugs, and one left stays its own', async () => {
    const database = await migratingPostgres()
    cleanups.push(database.cleanup)
    await organizationsStoredBeforeTheMigration(database)
  })
})
