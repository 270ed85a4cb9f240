import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { createTestDatabase } from '../../support/postgres'
import type { RepositoryFixture } from './contract-context'

export interface PostgresFixture extends RepositoryFixture {
  persistence: PostgresDatabase
  url: string
}

/** A migrated PostgreSQL database of its own on the test cluster, dropped by `cleanup`. */
export async function makePostgres(): Promise<PostgresFixture> {
  const database = await createTestDatabase()
  const persistence = new PostgresDatabase(database.url)
  try {
    await persistence.migrate()
  } catch (error) {
    await persistence.close()
    await database.drop()
    throw error
  }
  return {
    persistence,
    url: database.url,
    async cleanup() {
      await persistence.close()
      await database.drop()
    },
  }
}
