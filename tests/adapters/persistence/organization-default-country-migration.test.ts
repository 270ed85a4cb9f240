import { afterAll, describe, expect, test } from 'bun:test'
import { anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldOrganization } from './old-rows'

// Migration `organization_default_country` adds defaultCountry: an organization stored before it reads its people's
// national phone numbers as US ones (all of them were in the United States) until an admin sets another country.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function organizationStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_organization_default_country')
  const organization = anOrganization()
  await seed(oldOrganization(organization))

  await db.migrate(migrations)
  const upgraded = (await db.repositories.organizations.findById(organization.id))!
  expect(upgraded).toMatchObject({ id: organization.id, defaultCountry: 'US' })

  await db.unitOfWork.run((r) => r.organizations.update({ ...upgraded, defaultCountry: 'GB' }))
  expect(await db.repositories.organizations.findById(organization.id)).toMatchObject({ defaultCountry: 'GB' })
}

describe('upgrading to a default country', () => {
  test('SQLite: an organization stored before is US, and takes another after', async () => {
    const database = migratingSqlite()
    cleanups.push(database.cleanup)
    await organizationStoredBeforeTheMigration(database)
  })

  test.if(postgresAvailable())('PostgreSQL: an organization stored before is US, and takes another after', async () => {
    const database = await migratingPostgres()
    cleanups.push(database.cleanup)
    await organizationStoredBeforeTheMigration(database)
  })
})
