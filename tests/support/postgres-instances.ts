import { randomBytes } from 'node:crypto'
import type { Container } from 'inversify'
import { createContainer, PORTS } from '../../src/main/container'
import { bringUpToDate } from '../../src/main/server'
import { FixedClock } from './fixed-clock'
import { createTestDatabase } from './postgres'
import { cheapPasswords, createWorld, testConfig, type World } from './world'

const cleanups: Array<() => Promise<void>> = []

/**
 * Two instances of the service (two containers: two processes, as far as the database can tell) on one fresh,
 * migrated PostgreSQL database, on one clock, and an organization made through the first.
 */
export async function twoInstancesOnOneDatabase(): Promise<{ instances: Container[]; world: World; clock: FixedClock }> {
  const database = await createTestDatabase()
  cleanups.push(database.drop)
  const config = testConfig({
    DATABASE_URL: database.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // What these tests race is the instances, not the deadline (its tests are postgres-failover's): a unit
    // that waits on the other instance's locks on a busy machine may take longer than the 10 s default.
    DATABASE_QUERY_TIMEOUT_MS: '120000',
  })
  const clock = new FixedClock()
  const instances: Container[] = [0, 1].map(() => createContainer(config, { clock, passwords: cheapPasswords() }))
  cleanups.push(async () => {
    for (const instance of instances) await instance.get(PORTS.persistence).close()
  })
  await bringUpToDate(instances[0]!)
  return { instances, world: await createWorld(config, instances[0]!, clock), clock }
}

/** After a file's tests: every instance it opened closed, every database dropped. */
export async function closeInstances(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}
