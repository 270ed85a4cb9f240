import { afterAll, describe, expect, test } from 'bun:test'
import { searchTermsColumn } from '../../../src/adapters/persistence/sql/constituent-search'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { aConstituent, aHousehold, anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { ids } from './contract-support'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'

// Search terms carry their organization since migration `search_terms_per_organization`: the constituents a
// database held before it were indexed as `o<hex> t<word> …` and must be found after it as before.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** The form of search_terms before the migration: the organization's token, then `t<word>` for each word. */
function oldForm(searchTerms: string, organizationId: string): string {
  const mark = `o${organizationId.replace(/-/g, '')}`
  const words = searchTerms === '' ? [] : searchTerms.split(' ').map((term) => term.slice(mark.length))
  return [mark, ...words].join(' ')
}

async function constituentsStoredBeforeTheMigration({ db, migrations, run, insertOrganization, insertConstituent }: MigratingDatabase) {
  const at = migrations.findIndex((m) => m.tag.endsWith('_search_terms_per_organization'))
  expect(at).toBeGreaterThan(0)
  await db.migrate(migrations.slice(0, at))
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
  for (const o of [organization, other]) await insertOrganization(o)
  await db.unitOfWork.run(async (r) => {
    for (const o of [organization, other]) await r.constituents.insertHousehold(households.get(o.id)!)
  })
  for (const c of [ana, luis, nameless, foreignAna]) await insertConstituent(c)
  // Today's repositories write the new form: put back the one the older version wrote (on SQLite the index
  // follows through its update trigger).
  for (const c of [ana, luis, nameless, foreignAna]) {
    await run('UPDATE constituents SET search_terms = $1 WHERE id = $2', [oldForm(searchTermsColumn(c), c.organizationId), c.id])
  }

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
