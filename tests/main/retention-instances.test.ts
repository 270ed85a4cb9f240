import { afterAll, describe, expect, test } from 'bun:test'
import { useCasesOf } from '../../src/main/container'
import { postgresAvailable } from '../support/postgres'
import { closeInstances, twoInstancesOnOneDatabase } from '../support/postgres-instances'

// docs/privacy.md "Retention": several instances run the worker on one PostgreSQL database; each
// organization's run of the day is made by one of them, and each person is erased once.

const DAY = 86_400_000
afterAll(closeInstances)

if (postgresAvailable())
  describe('retention with two instances on one PostgreSQL database', () => {
    test('both run at once, again and again: one run a day, recorded once, each idle person erased once', async () => {
      const { instances, world, clock } = await twoInstancesOnOneDatabase()
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
