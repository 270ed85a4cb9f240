import { afterAll, describe, expect, test } from 'bun:test'
import { anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldOrganization } from './old-rows'

// Migration `organization_origins` adds appOrigins and formOrigins: an organization stored before it lists no
// origin (its links stay on PUBLIC_BASE_URL, no other site may post its intake) until an admin sets some.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function organizationStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_organization_origins')
  const organization = anOrganization()
  await seed(oldOrganization(organization))

  await db.migrate(migrations)
  const upgraded = (await db.repositories.organizations.findById(organization.id))!
  expect(upgraded).toMatchObject({ id: organization.id, slug: organization.slug })
  expect(Object.keys(upgraded)).not.toContain('appOrigins')
  expect(Object.keys(upgraded)).not.toContain('formOrigins')

  const withOrigins = { ...upgraded, appOrigins: ['https://staff.example.org'], formOrigins: ['https://pantry.example.net'] }
  await db.unitOfWork.run((r) => r.organizations.update(withOrigins))
  expect(await db.repositories.organizations.findById(organization.id)).toEqual(withOrigins)
}

describe('upgrading to organization origins', () => {
  test('SQLite: an organization stored before lists no origin, and takes them after', async () => {
    const database = migratingSqlite()
    cleanups.push(database.cleanup)
    await organizationStoredBeforeTheMigration(database)
  })

  test.if(postgresAvailable())('PostgreSQL: an organization stored before lists no origin, and takes them after', async () => {
    const database = await migratingPostgres()
    cleanups.push(database.cleanup)
    await organizationStoredBeforeTheMigration(database)
  })
})
