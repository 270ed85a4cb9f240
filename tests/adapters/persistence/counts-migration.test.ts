import { afterAll, describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { aConstituent, aHousehold, aNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { markedTerms, oldConstituent, oldHousehold, oldNeed, oldOrganization, oldPartner } from './old-rows'

// List totals come from need_counts and constituent_counts, which triggers keep from the migration on: the
// rows a database held before it must be counted by the migration itself, or every total of an upgraded
// database is wrong.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** A fresh database of the kind, dropped after the file's tests. */
async function fresh(make: () => MigratingDatabase | Promise<MigratingDatabase>): Promise<MigratingDatabase> {
  const database = await make()
  cleanups.push(database.cleanup)
  return database
}

async function needsStoredBeforeTheCounts({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_need_counts')
  const organization = anOrganization()
  const [p1, p2] = [aPartner({ organizationId: organization.id }), aPartner({ organizationId: organization.id })]
  const need = (partnerId: string, status: 'NEW' | 'RESOLVED') => oldNeed(aNeed({ organizationId: organization.id, partnerId, status }))
  await seed(
    oldOrganization(organization),
    oldPartner(p1),
    oldPartner(p2),
    need(p1.id, 'NEW'),
    need(p1.id, 'NEW'),
    need(p2.id, 'NEW'),
    need(p2.id, 'RESOLVED'),
  )
  await db.migrate(migrations)
  const total = async (filter: object) => (await db.repositories.needs.list(organization.id, filter, { page: 1, limit: 1 })).total
  expect([
    await total({}),
    await total({ statuses: ['NEW'] }),
    await total({ partnerId: p2.id }),
    await total({ partnerId: p1.id, statuses: ['RESOLVED'] }),
  ]).toEqual([4, 3, 2, 0])
  await db.unitOfWork.run((r) => r.needs.insert(aNeed({ organizationId: organization.id, partnerId: p1.id, status: 'RESOLVED' })))
  expect(await total({ partnerId: p1.id, statuses: ['RESOLVED'] })).toBe(1)
}

describe('upgrading to need_counts', () => {
  test('SQLite: the needs already stored are counted', async () => {
    const database = await fresh(migratingSqlite)
    await needsStoredBeforeTheCounts(database)
  })

  test.if(postgresAvailable())('PostgreSQL: the needs already stored are counted', async () => {
    const database = await fresh(migratingPostgres)
    await needsStoredBeforeTheCounts(database)
  })
})

// The total of the constituents list comes from constituent_counts, which triggers keep from its migration on.
async function constituentsStoredBeforeTheCounts({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_constituent_counts')
  const [organization, other] = [anOrganization(), anOrganization()]
  const household = aHousehold({ organizationId: organization.id })
  const person = () => aConstituent({ organizationId: organization.id, householdId: household.id, firstName: 'Ana' })
  const [first, second, third] = [person(), person(), person()]
  const stored = (c: Constituent) => oldConstituent(c, { search: markedTerms(organization.id, ['ana']) })
  await seed(oldOrganization(organization), oldOrganization(other), oldHousehold(household), ...[first, second, third].map(stored))
  await db.migrate(migrations)
  const total = async (organizationId: string) =>
    (await db.repositories.constituents.search(organizationId, parseConstituentQuery(''), { page: 1, limit: 1 })).total
  expect([await total(organization.id), await total(other.id)]).toEqual([3, 0])

  await db.unitOfWork.run(async (r) => {
    await r.constituents.insert(person())
    await r.constituents.delete(organization.id, first.id)
    await r.constituents.delete(organization.id, second.id)
  })
  await expect(
    db.unitOfWork.run(async (r) => {
      await r.constituents.insert(person())
      throw new Error('undo')
    }),
  ).rejects.toThrow('undo')
  expect([await total(organization.id), await total(other.id)]).toEqual([2, 0])
}

describe('upgrading to constituent_counts', () => {
  test('SQLite: the constituents already stored are counted, and the count follows inserts, deletes and rollbacks', async () => {
    const database = await fresh(migratingSqlite)
    await constituentsStoredBeforeTheCounts(database)
  })

  test.if(postgresAvailable())(
    'PostgreSQL: the constituents already stored are counted, and the count follows inserts, deletes and rollbacks',
    async () => {
      const database = await fresh(migratingPostgres)
      await constituentsStoredBeforeTheCounts(database)
    },
  )
})
