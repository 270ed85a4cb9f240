import { afterAll, describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { aConstituent, aHousehold, anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { ids } from './contract-support'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldConstituent, oldHousehold, oldOrganization, oldPhoneTerms } from './old-rows'

// Search terms carry their organization since migration `search_terms_per_organization`: the constituents a
// database held before it were indexed as `o<hex> t<word> …` and must be found after it as before.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** search_terms before the migration: the organization's token, then `t<word>` for each word of the names and the phone. */
const oldForm = (c: Constituent, names: string[]) =>
  [`o${c.organizationId.replace(/-/g, '')}`, ...[...names, ...oldPhoneTerms(c.phone)].map((word) => `t${word}`)].join(' ')

async function constituentsStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_search_terms_per_organization')
  const [organization, other] = [anOrganization(), anOrganization()]
  const person = (organizationId: string, firstName: string, lastName: string, phone: string) =>
    aConstituent({ organizationId, householdId: households.get(organizationId)!.id, firstName, lastName, phone })
  const households = new Map([organization, other].map((o) => [o.id, aHousehold({ organizationId: o.id })]))
  const ana = person(organization.id, 'Ana', 'García', '+15551230001')
  const luis = person(organization.id, 'Luis', 'Garcia', '+15559870002')
  const nameless = aConstituent({
    organizationId: organization.id,
    householdId: households.get(organization.id)!.id,
    email: 'n@example.org',
  })
  const foreignAna = person(other.id, 'Ana', 'Garcia', '+15551230001')
  const stored = (c: Constituent, names: string[]) => oldConstituent(c, { search: oldForm(c, names) })
  await seed(
    ...[organization, other].map(oldOrganization),
    ...[...households.values()].map(oldHousehold),
    stored(ana, ['ana', 'garcia']),
    stored(luis, ['luis', 'garcia']),
    stored(nameless, []),
    stored(foreignAna, ['ana', 'garcia']),
  )

  await db.migrate(migrations)
  const found = async (organizationId: string, query: string) => {
    const page = await db.repositories.constituents.search(organizationId, parseConstituentQuery(query), { page: 1, limit: 25 })
    return { ids: ids(page.items).sort(), total: page.total }
  }
  const sorted = (...cs: Array<{ id: string }>) => cs.map((c) => c.id).sort()
  expect(await found(organization.id, 'garc')).toEqual({ ids: sorted(ana, luis), total: 2 })
  expect(await found(organization.id, 'g')).toEqual({ ids: sorted(ana, luis), total: 2 })
  expect(await found(organization.id, 'ana gar')).toEqual({ ids: sorted(ana), total: 1 })
  expect(await found(organization.id, '555 123')).toEqual({ ids: sorted(ana), total: 1 })
  expect(await found(other.id, 'ana')).toEqual({ ids: sorted(foreignAna), total: 1 })
  // Written after the migration, by today's repositories, in the new form: found beside the old ones.
  const ada = person(organization.id, 'Ada', 'Garcés', '+15550000003')
  await db.unitOfWork.run((r) => r.constituents.insert(ada))
  expect(await found(organization.id, 'garc')).toEqual({ ids: sorted(ana, luis, ada), total: 3 })
}

describe('upgrading to search terms that carry their organization', () => {
  test('SQLite: the constituents already stored are found as before', async () => {
    const database = migratingSqlite()
    cleanups.push(database.cleanup)
    await constituentsStoredBeforeTheMigration(database)
  })

  test.if(postgresAvailable())('PostgreSQL: the constituents already stored are found as before', async () => {
    const database = await migratingPostgres()
    cleanups.push(database.cleanup)
    await constituentsStoredBeforeTheMigration(database)
  })
})
