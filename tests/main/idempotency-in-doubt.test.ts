import { afterAll, describe, expect, test } from 'bun:test'
import { randomBytes, randomUUID } from 'node:crypto'
import { createContainer, PORTS, useCasesOf } from '../../src/main/container'
import { bringUpToDate } from '../../src/main/server'
import { databaseProxy, type DatabaseProxy } from '../support/database-proxy'
import { FixedClock } from '../support/fixed-clock'
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { cheapPasswords, createWorld, testConfig } from '../support/world'

// docs/api/conventions.md "Retrying a create": a create whose COMMIT went out but whose answer never came back
// (a partition from that moment) is answered 503 in doubt by its deadline; the change was in fact saved once
// the partition healed, and the client's retry with the same Idempotency-Key answers that need: one need, not
// two. The service's use cases on PostgreSQL, through a proxy that starts the partition at the COMMIT.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

if (postgresAvailable())
  describe('a create in doubt, retried with its Idempotency-Key', () => {
    test('makes one need, and the retry answers it', async () => {
      const database = await createTestDatabase()
      cleanups.push(database.drop)
      const proxy: DatabaseProxy = await databaseProxy(database.url)
      cleanups.push(proxy.close)
      const config = testConfig({
        DATABASE_URL: proxy.url,
        DATABASE_QUERY_TIMEOUT_MS: '1500',
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      })
      const clock = new FixedClock()
      const setup = createContainer(config, { clock, passwords: cheapPasswords() })
      cleanups.push(() => setup.get(PORTS.persistence).close())
      await bringUpToDate(setup)
      const world = await createWorld(config, setup, clock)
      // An instance of its own, whose connections have prepared nothing yet: its COMMIT goes out as text.
      const container = createContainer(config, { clock, passwords: cheapPasswords() })
      cleanups.push(() => container.get(PORTS.persistence).close())
      const needs = useCasesOf(container).needs
      const key = randomUUID()
      const input = { partnerId: world.defaultPartner.id, customFields: { program: 'rent help' } }

      proxy.partitionAt(/\bcommit\b/i)
      const failure = await needs.create.execute(world.admin, input, key).catch((error: unknown) => error)
      expect(container.get(PORTS.persistence).outageOf(failure)).toBe('in_doubt')
      proxy.heal()

      const retried = await needs.create.execute(world.admin, input, key)
      const listed = await needs.list.execute(world.admin, {}, { page: 1, limit: 100 })
      expect(listed.items.map((need) => need.id)).toEqual([retried.id])
      expect(retried).toMatchObject({ customFields: { program: 'rent help' }, referenceNumber: listed.items[0]!.referenceNumber })
    }, 30_000)
  })
