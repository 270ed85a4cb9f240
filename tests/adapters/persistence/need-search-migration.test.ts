import { afterAll, describe, expect, test } from 'bun:test'
import { IndexNeedSearchBacklog } from '../../../src/application/needs/index-need-search-backlog'
import type { NeedSearch } from '../../../src/domain/needs/search'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { ids } from './contract-support'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldNeed, oldOrganization, oldPartner } from './old-rows'

// Need search came with migration `need_search` (docs/api/needs.md "Search and sort"): the needs a database
// held before it are found by their reference numbers at once, and by their description and names once the
// worker has indexed its backlog; a need written meanwhile is indexed by its write and left alone.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function needsStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_need_search')
  const organization = anOrganization({ shortCode: 'FOOD' })
  const partner = aPartner({ organizationId: organization.id })
  const need = (referenceNumber: string, customFields: Record<string, unknown>) =>
    aNeed({ organizationId: organization.id, partnerId: partner.id, referenceNumber, customFields })
  const rent = need('FOOD-1001', { description: 'Help with the rent', firstName: 'Amara' })
  const coats = need('FOOD-1002', { description: 'Winter coats' })
  await seed(oldOrganization(organization), oldPartner(partner), oldNeed(rent), oldNeed(coats))

  await db.migrate(migrations)

  const kinds: NeedSearch['kinds'] = ['r', 'd', 'n', 'c', 'm']
  const found = async (q: string) =>
    ids((await db.repositories.needs.list(organization.id, { search: { words: q.split(' '), kinds } }, { page: 1, limit: 25 })).items)
  expect(await found('food 1001')).toEqual([rent.id])
  expect(await found('rent')).toEqual([])
  // Written before the worker came to it: its write indexes it, and the worker leaves it as written.
  await db.unitOfWork.run((r) => r.needs.update({ ...coats, customFields: { description: 'Warm boots' } }))

  expect(await new IndexNeedSearchBacklog(db.unitOfWork).execute()).toBe(1)
  expect(await found('rent amara')).toEqual([rent.id])
  expect(await found('boots')).toEqual([coats.id])
  expect(await found('coats')).toEqual([])
  expect(await new IndexNeedSearchBacklog(db.unitOfWork).execute()).toBe(0)
}

const DATABASES: Array<[name: string, available: boolean, open: () => Promise<MigratingDatabase>]> = [
  ['SQLite', true, async () => migratingSqlite()],
  ['PostgreSQL', postgresAvailable(), migratingPostgres],
]

describe('upgrading to need search', () => {
  for (const [name, available, open] of DATABASES) {
    test.if(available)(
      `${name}: the needs already stored are found by reference at once, by their text once the backlog is indexed`,
      async () => {
        const database = await open()
        cleanups.push(database.cleanup)
        await needsStoredBeforeTheMigration(database)
      },
    )
  }
})
