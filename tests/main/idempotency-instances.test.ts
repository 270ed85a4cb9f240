import { afterAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { useCasesOf } from '../../src/main/container'
import { postgresAvailable } from '../support/postgres'
import { closeInstances, twoInstancesOnOneDatabase } from '../support/postgres-instances'

// docs/api/conventions.md "Retrying a create": requests with one Idempotency-Key sent at once to two instances on
// one PostgreSQL database make one record; the key's primary key makes each retry wait for the create it
// retries, and answer what it made.

afterAll(closeInstances)

if (postgresAvailable())
  describe('Idempotency-Keys with two instances on one PostgreSQL database', () => {
    test('creates with one key at once, on both instances, make one need, and every one is answered with it', async () => {
      const { instances, world } = await twoInstancesOnOneDatabase()
      const needs = async () => (await world.useCases.needs.list.execute(world.admin, {}, { page: 1, limit: 100 })).items

      const key = randomUUID()
      const staff = instances.flatMap((instance) =>
        [0, 1, 2].map(() => useCasesOf(instance).needs.create.execute(world.admin, { partnerId: world.defaultPartner.id }, key)),
      )
      const made = await Promise.all(staff)
      expect(new Set(made.map((need) => need.id)).size).toBe(1)
      expect(new Set(made.map((need) => need.referenceNumber)).size).toBe(1)
      expect((await needs()).map((need) => need.id)).toEqual([made[0]!.id])

      const submission = { organizationId: world.organizationId, description: 'Food for two' }
      const anonymous = instances.flatMap((instance) =>
        [0, 1, 2].map(() => useCasesOf(instance).needs.submitPublic.execute(submission, { idempotencyKey: key })),
      )
      const submitted = await Promise.all(anonymous)
      expect(new Set(submitted.map((need) => need.id)).size).toBe(1)
      expect(await needs()).toHaveLength(2)
    }, 60_000)
  })
