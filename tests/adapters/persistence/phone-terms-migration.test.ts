import { afterAll, describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { aConstituent, aHousehold, anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { ids } from './contract-support'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { markedTerms, oldConstituent, oldHousehold, oldOrganization, oldPhoneTerms } from './old-rows'

// Phone terms have a column of their own since migration `erasure_and_retention`, every ending of the digits
// (docs/constituents.md "Search"): the people a database held before it, whose phone digits were name-like
// terms, must be found by any part of their number after it, and by their names as before.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** search_terms as the version before wrote it: the name words, then the digits (and for +1, the 10 after it). */
function oldSearchTerms(c: Constituent): string {
  const names = [c.firstName, c.lastName].flatMap((name) => (name ? [name.toLowerCase()] : []))
  return markedTerms(c.organizationId, [...names, ...oldPhoneTerms(c.phone)])
}

async function peopleStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed }: MigratingDatabase) {
  await migrateToBefore('_erasure_and_retention')
  const [organization, other] = [anOrganization(), anOrganization()]
  const households = new Map([organization, other].map((o) => [o.id, aHousehold({ organizationId: o.id })]))
  const person = (organizationId: string, firstName: string, phone?: string) =>
    aConstituent({
      organizationId,
      householdId: households.get(organizationId)!.id,
      firstName,
      lastName: 'Okafor',
      ...(phone ? { phone } : {}),
    })
  const ngozi = person(organization.id, 'Ngozi', '+15038675309')
  const emeka = person(organization.id, 'Emeka', '+442071838750')
  const short = person(organization.id, 'Ada', '+123')
  const noPhone = person(organization.id, 'Chidi')
  const foreign = person(other.id, 'Ngozi', '+15038675309')
  await seed(
    ...[organization, other].map(oldOrganization),
    ...[...households.values()].map(oldHousehold),
    ...[ngozi, emeka, short, noPhone, foreign].map((c) => oldConstituent(c, { search: oldSearchTerms(c) })),
  )

  await db.migrate(migrations)

  const found = async (organizationId: string, query: string) =>
    ids((await db.repositories.constituents.search(organizationId, parseConstituentQuery(query), { page: 1, limit: 25 })).items).sort()
  const sorted = (...cs: Array<{ id: string }>) => cs.map((c) => c.id).sort()
  expect(await found(organization.id, '8675309')).toEqual(sorted(ngozi))
  expect(await found(organization.id, '+1 (503) 867-5309')).toEqual(sorted(ngozi))
  expect(await found(organization.id, '5038675309')).toEqual(sorted(ngozi))
  expect(await found(organization.id, '0718')).toEqual(sorted(emeka))
  expect(await found(organization.id, '123')).toEqual(sorted(short))
  expect(await found(organization.id, '555')).toEqual([])
  expect(await found(organization.id, 'okafor')).toEqual(sorted(ngozi, emeka, short, noPhone))
  expect(await found(organization.id, 'ngo oka')).toEqual(sorted(ngozi))
  expect(await found(other.id, '867')).toEqual(sorted(foreign))
  // A word of digits among names is looked for in the phone, any part of it.
  expect(await found(organization.id, 'okafor 1838')).toEqual(sorted(emeka))
  // Written after the migration by today's repositories: found the same way, beside the old ones.
  const later = person(organization.id, 'Obi', '+15038670000')
  await db.unitOfWork.run((r) => r.constituents.insert(later))
  expect(await found(organization.id, '503867')).toEqual(sorted(ngozi, later))
}

describe('upgrading to phone terms of their own', () => {
  test('SQLite: the people already stored are found by any part of their number, and by their names', async () => {
    const database = migratingSqlite()
    cleanups.push(database.cleanup)
    await peopleStoredBeforeTheMigration(database)
  })

  test.if(postgresAvailable())(
    'PostgreSQL: the people already stored are found by any part of their number, and by their names',
    async () => {
      const database = await migratingPostgres()
      cleanups.push(database.cleanup)
      await peopleStoredBeforeTheMigration(database)
    },
  )
})
