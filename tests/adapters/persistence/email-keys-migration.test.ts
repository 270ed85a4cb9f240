import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { mailboxOf } from '../../../src/domain/messaging/mailbox'
import { aConstituent, aHousehold, anOrganization } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { ids } from './contract-support'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldConstituent, oldHousehold, oldOrganization } from './old-rows'

// Email keys are mailboxes since migration `email_keys_are_mailboxes` (docs/constituents.md "Duplicate detection"):
// the keys stored before it, lower-cased addresses, are rewritten in SQL as mailboxOf writes them, so the people
// already stored are found by any form of their address, as those stored after are.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Addresses the EMAIL rule takes, rich in what the key reads: quotes, tags, dots, escapes, case, Gmail. */
const addresses = fc.sample(
  fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...'"+.\\aAbZ9_'), minLength: 1, maxLength: 10 }),
      fc.constantFrom('example.org', 'Example.ORG', 'gmail.com', 'GMail.com', 'googlemail.com', 'gmail.com.example.org'),
    )
    .map(([local, domain]) => `${local}@${domain}`),
  { numRuns: 300, seed: 38 },
)
const FORMS = ['"Ana"+food@Example.org', 'A.na.Ruiz+x@GoogleMail.com', '"x+1"@example.org', '"a\\"b"@example.org', '+tag@example.org']

/** phone_terms as the versions before wrote them: each ending of the digits, down to 3, behind `o<hex>p`. */
function oldPhoneEndings({ organizationId, phone }: Constituent): string {
  const digits = phone!.replace(/\D/g, '')
  return Array.from({ length: digits.length - 2 }, (_, start) => `o${organizationId.replace(/-/g, '')}p${digits.slice(start)}`).join(' ')
}

async function peopleStoredBeforeTheMigration({ db, migrations, migrateToBefore, seed, rows }: MigratingDatabase) {
  await migrateToBefore('_email_keys_are_mailboxes')
  const organization = anOrganization()
  const household = aHousehold({ organizationId: organization.id })
  const people = [...FORMS, ...addresses].map((email, i) =>
    aConstituent({ organizationId: organization.id, householdId: household.id, email, phone: `+1555${String(i).padStart(7, '0')}` }),
  )
  // Their keys as the versions before wrote them: the lower-cased address.
  await seed(
    oldOrganization(organization),
    oldHousehold(household),
    ...people.map((c) => oldConstituent(c, { search: '', phone: oldPhoneEndings(c) })),
  )

  await db.migrate(migrations)

  const stored = await rows('SELECT email, email_key FROM constituents')
  expect(stored).toHaveLength(people.length)
  for (const { email, email_key } of stored) expect({ email, key: email_key }).toEqual({ email, key: mailboxOf(email as string) })
  const [ana, ruiz] = people
  const found = async (query: string) =>
    ids((await db.repositories.constituents.search(organization.id, parseConstituentQuery(query), { page: 1, limit: 25 })).items)
  expect(await found('ana@example.org')).toEqual([ana!.id])
  expect(await found('anaruiz@gmail.com')).toEqual([ruiz!.id])
  const sharing = (email: string) => db.repositories.constituents.findByMatchKeys(organization.id, matchKeysOf({ email }), '', 20)
  expect(ids(await sharing('ANA+other@example.org'))).toEqual([ana!.id])
  // The indexes made again: a phone is found as before.
  expect(ids(await db.repositories.constituents.findByMatchKeys(organization.id, { phone: ruiz!.phone! }, '', 20))).toEqual([ruiz!.id])
}

describe('upgrading to email keys that are mailboxes', () => {
  test('SQLite: every key stored before is the mailbox of its address, and found by any form of it', async () => {
    const database = migratingSqlite()
    cleanups.push(database.cleanup)
    await peopleStoredBeforeTheMigration(database)
  })

  test.if(postgresAvailable())(
    'PostgreSQL: every key stored before is the mailbox of its address, and found by any form of it',
    async () => {
      const database = await migratingPostgres()
      cleanups.push(database.cleanup)
      await peopleStoredBeforeTheMigration(database)
    },
  )
})
