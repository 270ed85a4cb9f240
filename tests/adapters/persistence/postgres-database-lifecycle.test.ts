import { describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/migrations'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { anOrganization } from '../../support/builders'
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL } from '../../support/postgres'
import { makePostgres } from './postgres-fixture'

// A PostgreSQL database's life: the test fixture drops what it made, and instances starting together on a
// fresh database migrate it once.

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    test('drops its database on cleanup', async () => {
      const fixture = await makePostgres()
      const name = new URL(fixture.url).pathname.slice(1)
      const admin = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} })
      try {
        const exists = async () => (await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length === 1
        expect(await exists()).toBe(true)
        await fixture.cleanup()
        expect(await exists()).toBe(false)
      } finally {
        await admin.end()
      }
    })

    test('two instances migrating one fresh database at once apply each migration once (the advisory lock)', async () => {
      const fresh = await createTestDatabase()
      const instances = [new PostgresDatabase(fresh.url), new PostgresDatabase(fresh.url)]
      const client = postgres(fresh.url, { max: 1, onnotice: () => {} })
      try {
        await Promise.all(instances.map((instance) => instance.migrate()))

        const [applied] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`
        expect(applied?.n).toBe(POSTGRES_MIGRATIONS.length)
        const organization = anOrganization()
        await instances[0]!.unitOfWork.run((r) => r.organizations.insert(organization))
        expect(await instances[1]!.repositories.organizations.findById(organization.id)).toEqual(organization)
      } finally {
        await client.end()
        for (const instance of instances) await instance.close()
        await fresh.drop()
      }
    })
  })
