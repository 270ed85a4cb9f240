import { afterAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import type { Container } from 'inversify'
import { createContainer, PORTS, useCasesOf } from '../../src/main/container'
import { bringUpToDate } from '../../src/main/server'
import { FixedClock } from '../support/fixed-clock'
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { cheapPasswords, createWorld, testConfig } from '../support/world'

// docs/privacy.md "Retention": several instances run the worker on one PostgreSQL database; each
// organization's run of the day is made by one of them, and each person is erased once.

const DAY = 86_400_000
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

if (postgresAvailable())
  describe('retention with two instances on one PostgreSQL database', () => {
    test('both run at once, again and again: one run a day, recorded once, each idle person erased once', async () => {
      const database = await createTestDatabase()
      cleanups.push(database.drop)
      const config = testConfig({
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      })
      const clock = new FixedClock()
      const instances: Container[] = [0, 1].map(() => createContainer(config, { clock, passwords: cheapPasswords() }))
      cleanups.push(async () => {
        for (const instance of instances) await instance.get(PORTS.persistence).close()
      })
      await bringUpToDate(instances[0]!)
      const world = await createWorld(config, instances[0]!, clock)
      await world.useCases.organizations.updateSettings.execute(world.admin, { constituentRetentionDays: 30 })
      // More people than one transaction erases, so the two runs would overlap if both were let in.
      const people = 130
      for (let i = 0; i < people; i++) await world.useCases.constituents.create.execute(world.admin, { firstName: `Idle${i}` })
      clock.advance(31 * DAY)

      const runs = (
        await Promise.all(instances.flatMap((instance) => [0, 1].map(() => useCasesOf(instance).operations.applyRetention.execute())))
      ).flatMap((pass) => pass.runs)

      expect(runs).toEqual([{ organizationId: world.organizationId, constituentsErased: people, needTextsCleared: 0 }])
      const audit = world.useCases.audit.list
      const erasures = await audit.execute(world.admin, { action: 'erase' }, { page: 1, limit: 200 })
      expect(erasures.total).toBe(people)
      expect(new Set(erasures.items.map((e) => e.recordId)).size).toBe(people)
      const recorded = await audit.execute(world.admin, { action: 'apply_retention' }, { page: 1, limit: 10 })
      expect(recorded.items.map((e) => e.counts)).toEqual([{ constituentsErased: people, needTextsCleared: 0 }])

      // The next day's run is one more, whichever instance makes it.
      clock.advance(DAY)
      const nextDay = (await Promise.all(instances.map((instance) => useCasesOf(instance).operations.applyRetention.execute()))).flatMap(
        (pass) => pass.runs,
      )
      expect(nextDay).toEqual([{ organizationId: world.organizationId, constituentsErased: 0, needTextsCleared: 0 }])
    }, 60_000)
  })
