import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { createContainer, PORTS, useCasesOf } from '../../src/main/container'
import { bringUpToDate } from '../../src/main/server'
import { databaseProxy, type DatabaseProxy } from '../support/database-proxy'
import { FixedClock } from '../support/fixed-clock'
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { cheapPasswords, createWorld, testConfig, type World } from '../support/world'

// docs/performance/bounds.md "What bounds each route": a public request makes a constituent of its contact
// details and checks them for duplicates in one round trip more than a staff create of a need, however many
// people share its keys: the household matches of its candidates go in a few multi-row inserts, sent on with
// what follows. The service's use cases on PostgreSQL, through a proxy that counts.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

if (postgresAvailable())
  describe('PostgreSQL: the round trips and statements of a public intake', () => {
    let proxy: DatabaseProxy
    let world: World
    let needs: ReturnType<typeof useCasesOf>['needs']
    let container: ReturnType<typeof createContainer>
    beforeAll(async () => {
      const database = await createTestDatabase()
      cleanups.push(database.drop)
      proxy = await databaseProxy(database.url)
      cleanups.push(proxy.close)
      const config = testConfig({
        DATABASE_URL: proxy.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      })
      const clock = new FixedClock()
      container = createContainer(config, { clock, passwords: cheapPasswords() })
      cleanups.push(() => container.get(PORTS.persistence).close())
      await bringUpToDate(container)
      world = await createWorld(config, container, clock)
      needs = useCasesOf(container).needs
    }, 30_000)

    /** What `work` cost, once each connection of the pool has prepared its statements (a few runs first). */
    async function counted(work: () => Promise<unknown>): Promise<{ roundTrips: number; statements: number }> {
      for (let i = 0; i < 4; i++) await work()
      const [roundTrips, statements] = [proxy.counter.roundTrips, proxy.counter.statements]
      await work()
      return { roundTrips: proxy.counter.roundTrips - roundTrips, statements: proxy.counter.statements - statements }
    }

    let person = 0
    /** A public request from a new person; `phone` shared with those before it makes each of them a candidate. */
    const intake = (phone?: string) => () =>
      needs.submitPublic.execute({
        organizationId: world.organizationId,
        description: 'Help with rent',
        customFields: { firstName: 'Ana', lastName: `Person${++person}`, phone: phone ?? `+1555${String(person).padStart(7, '0')}` },
      })

    test('one round trip more than a create, and the same with six people on file under its phone, their matches in two statements', async () => {
      const create = await counted(() =>
        needs.create.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: { description: 'Needs groceries' } }),
      )
      const alone = await counted(intake())
      const shared = '+15559990000'
      for (let i = 0; i < 2; i++) await intake(shared)()
      const withDuplicates = await counted(intake(shared))
      const matches = await container
        .get(PORTS.persistence)
        .repositories.householdMatches.list(world.organizationId, 'OPEN', { page: 1, limit: 100 })

      // The last intake found the six before it: 1 + 2 + … + 6 matches in all.
      expect(matches.total).toBe(21)
      // One more than a create: the lookup of who shares the new person's keys, read with the subscribers to
      // constituent.created once the person is written.
      expect(alone.roundTrips).toBe(create.roundTrips + 1)
      expect(withDuplicates.roundTrips).toBe(alone.roundTrips)
      // Six matches in two inserts, of four rows and of two (each prepared once, whatever the count).
      expect(withDuplicates.statements).toBe(alone.statements + 2)
    })
  })
