import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { MemoryPersistence } from '../../../src/adapters/persistence/memory/memory-persistence'
import type { Persistence } from '../../../src/application/ports/persistence'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Constituent, Household } from '../../../src/domain/constituents/constituent'
import { matchKeysOf, type MatchKeys } from '../../../src/domain/constituents/matching'
import { parseConstituentQuery, SEARCH_TOTAL_BOUND } from '../../../src/domain/constituents/search'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { PageRequest } from '../../../src/domain/shared/page'
import { aConstituent, aHousehold, aHouseholdMatch, anOrganization } from '../../support/builders'
import { byId, ids, minute } from './contract-support'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'
import { planOf as planOfStatement, recordingRepositories, type Recorded } from './recording-sqlite'

// Duplicate detection and search read a number of rows that does not grow with the constituents.
// 50,000 constituents in three organizations go in through the port; the statements the SQLite adapter runs
// are recorded, explained (EXPLAIN QUERY PLAN) and their rows counted on a read-only connection of the file.

const SIZES = [30_000, 15_000, 5_000] as const
const PER_HOUSEHOLD = 5
const CHUNK = 12_500

/** A small deterministic generator (mulberry32): the same 50,000 people on every run. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FIRST = [
  'María',
  'José',
  'Chloé',
  'Ana',
  'Luis',
  'Wei',
  'Fatima',
  'Olga',
  'Ahmed',
  'Emily',
  'Noah',
  'Liam',
  'Sofía',
  'Ivan',
  'Zoë',
  'Hannah',
  'Mateo',
  'Amir',
  'Grace',
  'Kofi',
]
const LAST_START = [
  'Gar',
  'Mor',
  'Lin',
  'Kow',
  'Ng',
  'Ber',
  'Sil',
  'Fer',
  'Ros',
  'Tan',
  'Hal',
  'Dub',
  'Kar',
  'Mal',
  'Pet',
  'Nov',
  'Cas',
  'Rey',
  'Bau',
  'Sch',
]
const LAST_END = [
  'cía',
  'ales',
  'dqvist',
  'alski',
  'uyen',
  'nard',
  'va',
  'reira',
  'si',
  'aka',
  'vorsen',
  'ois',
  'imi',
  'ik',
  'rov',
  'ak',
  'tro',
  'és',
  'er',
  'midt',
]
const STREETS = ['Main St', 'Oak Ave', 'Elm St', 'Maple Dr', 'Pine Rd', 'Cedar Ln', 'Lake View', 'Hill St', 'Park Ave', 'Rue Saint-Éloi']

/** Background people: unique phones (+1 300…) and emails, names from short lists, some fields absent. */
function backgroundOf(organization: Organization, count: number, offset: number): { households: Household[]; constituents: Constituent[] } {
  const next = random(offset + 1)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
  const households: Household[] = []
  const constituents: Constituent[] = []
  for (let i = 0; i < count; i++) {
    if (i % PER_HOUSEHOLD === 0) households.push(aHousehold({ organizationId: organization.id }))
    const n = offset + i
    const year = 1940 + Math.floor(next() * 65)
    const month = String(1 + Math.floor(next() * 12)).padStart(2, '0')
    const day = String(1 + Math.floor(next() * 28)).padStart(2, '0')
    // Two people per second: list orders need the id tie-break.
    const at = new Date(minute(-100_000).getTime() + Math.floor(i / 2) * 1000)
    constituents.push(
      aConstituent({
        organizationId: organization.id,
        householdId: households[households.length - 1]!.id,
        createdAt: at,
        updatedAt: at,
        firstName: pick(FIRST),
        lastName: `${pick(LAST_START)}${pick(LAST_END)}`,
        phone: `+1${3_000_000_000 + n * 7}`,
        ...(next() < 0.8 ? { email: `user${n}@Example.org` } : {}),
        ...(next() < 0.7 ? { dateOfBirth: `${year}-${month}-${day}` } : {}),
        ...(next() < 0.6 ? { addressStreet: `${1 + (n % 997)} ${pick(STREETS)}` } : {}),
      }),
    )
  }
  return { households, constituents }
}

const XIOMARA = {
  firstName: 'Xiomara',
  lastName: 'Quispe',
  phone: '+15550001000',
  email: 'xiomara.quispe@example.org',
  dateOfBirth: '1975-05-05',
  addressStreet: '77 Calle Luna',
}

/** In the big organization: Xiomara and one person per duplicate key she shares, plus a namesake sharing none. */
function plantedIn(organizationId: string) {
  const household = aHousehold({ organizationId })
  const at = (n: number) => ({ createdAt: minute(n), updatedAt: minute(n) })
  const person = (n: number, details: Partial<Constituent>) =>
    aConstituent({ organizationId, householdId: household.id, ...at(n), ...details })
  const people = {
    original: person(1, XIOMARA),
    samePhone: person(2, { firstName: 'Yusuf', lastName: 'Tran', phone: XIOMARA.phone }),
    sameEmail: person(3, { firstName: 'Zed', lastName: 'Ortiz', email: 'XIOMARA.Quispe@EXAMPLE.org' }),
    sameNameBirth: person(4, { firstName: 'XIOMARA', lastName: 'quíspe', dateOfBirth: XIOMARA.dateOfBirth, phone: '+15550002001' }),
    sameLastStreet: person(5, { firstName: 'Wen', lastName: 'QUISPE', addressStreet: '77 calle luna.', phone: '+15550002002' }),
    namesake: person(6, {
      firstName: 'Xiomara',
      lastName: 'Quispe',
      dateOfBirth: '1990-01-01',
      addressStreet: '1 Calle Sol',
      phone: '+15550002003',
    }),
  }
  return { household, people }
}

async function seed(persistence: Persistence, organizations: Organization[], households: Household[], constituents: Constituent[]) {
  await persistence.unitOfWork.run(async (r) => {
    for (const organization of organizations) await r.organizations.insert(organization)
    for (const household of households) await r.constituents.insertHousehold(household)
  })
  for (let start = 0; start < constituents.length; start += CHUNK) {
    await persistence.unitOfWork.run(async (r) => {
      for (const constituent of constituents.slice(start, start + CHUNK)) await r.constituents.insert(constituent)
    })
  }
}

describe('SQLite with 50,000 constituents', () => {
  const organizations = SIZES.map(() => anOrganization())
  const [big, middle, small] = organizations as [Organization, Organization, Organization]
  const planted = plantedIn(big.id)
  const households: Household[] = [planted.household]
  const constituents: Constituent[] = []
  let offset = 0
  for (const [index, organization] of organizations.entries()) {
    const background = backgroundOf(organization, SIZES[index]!, offset)
    offset += SIZES[index]!
    households.push(...background.households)
    constituents.push(...background.constituents)
  }
  const twinHousehold = aHousehold({ organizationId: small.id })
  const twin = aConstituent({ organizationId: small.id, householdId: twinHousehold.id, ...XIOMARA })
  households.push(twinHousehold)
  constituents.push(...Object.values(planted.people), twin)
  /** Who registers next: Xiomara again, not stored yet. */
  const newcomer = aConstituent({ organizationId: big.id, householdId: planted.household.id, ...XIOMARA })
  const { people } = planted

  let sqlite: SqliteFixture
  let memory: MemoryPersistence
  let recording: ReturnType<typeof recordingRepositories>
  let planner: Database

  beforeAll(async () => {
    sqlite = await makeSqlite()
    memory = new MemoryPersistence()
    await seed(sqlite.persistence, organizations, households, constituents)
    await seed(memory, organizations, households, constituents)
    recording = recordingRepositories(sqlite.path)
    planner = new Database(sqlite.path, { readonly: true })
  }, 60_000)

  afterAll(async () => {
    planner?.close()
    recording?.close()
    await memory?.close()
    await sqlite?.cleanup()
  })

  /** The detail lines of EXPLAIN QUERY PLAN for one recorded statement. */
  const planOf = (statement: Recorded) => planOfStatement(planner, statement)
  const allPlans = (statements: Recorded[]) => statements.flatMap(planOf)
  /** Plan lines that read constituents other than by seq or by an organization's duplicate key: scans and walks of an organization. */
  const keyLookup =
    /^SEARCH constituents USING (INTEGER PRIMARY KEY \(rowid=\?\)|(COVERING )?INDEX constituents_by_\w+ \(organization_id=\? AND \w+=\?\))$/
  const scansOfConstituents = (plan: string[]) => plan.filter((line) => / constituents\b/.test(line) && !keyLookup.test(line))

  const search = (r: Repositories, organizationId: string, query: string, page: PageRequest = { page: 1, limit: 25 }) =>
    r.constituents.search(organizationId, parseConstituentQuery(query), page)

  test('every constituent went in through the port', async () => {
    const totals = await Promise.all(
      organizations.map(async (o) => (await search(sqlite.persistence.repositories, o.id, '', { page: 1, limit: 1 })).total),
    )
    expect(totals).toEqual([SIZES[0] + Object.keys(people).length, SIZES[1], SIZES[2] + 1])
    expect(totals.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(50_000)
  })

  describe('duplicate lookup', () => {
    test('reads only the true matches, one indexed equality per key', async () => {
      const keys = matchKeysOf(newcomer)
      const { result, statements } = await recording.measure((r) => r.constituents.findByMatchKeys(big.id, keys, newcomer.id, 20))

      expect(byId(result)).toEqual(byId([people.original, people.samePhone, people.sameEmail, people.sameNameBirth, people.sameLastStreet]))
      // One statement per key, each answering Xiomara and the one person sharing that key: 8 rows out of 30,006.
      expect(statements.map((s) => s.rows)).toEqual([2, 2, 2, 2])
      expect(statements.map((s) => planOf(s).join(' | ')).sort()).toEqual([
        'SEARCH constituents USING INDEX constituents_by_email (organization_id=? AND email_key=?)',
        'SEARCH constituents USING INDEX constituents_by_last_street (organization_id=? AND last_street_key=?)',
        'SEARCH constituents USING INDEX constituents_by_name_birth (organization_id=? AND name_birth_key=?)',
        'SEARCH constituents USING INDEX constituents_by_phone (organization_id=? AND phone=?)',
      ])
      expect(allPlans(statements).filter((line) => line.includes('SCAN'))).toEqual([])
    })

    test('reads as few rows in the big organization as in the small one', async () => {
      const keys = matchKeysOf(newcomer)
      const inBig = await recording.measure((r) => r.constituents.findByMatchKeys(big.id, keys, people.original.id, 20))
      const inSmall = await recording.measure((r) => r.constituents.findByMatchKeys(small.id, keys, newcomer.id, 20))

      expect(inSmall.result).toEqual([twin])
      expect(inSmall.statements.map((s) => s.rows)).toEqual([1, 1, 1, 1])
      expect(inBig.statements.map((s) => s.rows)).toEqual([1, 1, 1, 1])
      expect(inBig.result).toHaveLength(4)
    })

    test("a person's household matches are read by their index, however many the organization holds", async () => {
      const background = constituents.filter((c) => c.organizationId === big.id).slice(0, 2_001)
      const pairs = background
        .slice(1)
        .map((c, i) =>
          aHouseholdMatch({ organizationId: big.id, constituentId: background[i]!.id, candidateConstituentId: c.id, createdAt: minute(i) }),
        )
      const asConstituent = aHouseholdMatch({
        organizationId: big.id,
        constituentId: people.original.id,
        candidateConstituentId: people.samePhone.id,
        createdAt: minute(-2),
      })
      const asCandidate = aHouseholdMatch({
        organizationId: big.id,
        constituentId: people.sameEmail.id,
        candidateConstituentId: people.original.id,
        createdAt: minute(-3),
      })
      await sqlite.persistence.unitOfWork.run(async (r) => {
        for (const match of [...pairs, asConstituent, asCandidate]) await r.householdMatches.insert(match)
      })

      const { result, statements } = await recording.measure((r) => r.householdMatches.listInvolving(big.id, people.original.id))

      expect(result).toEqual([asCandidate, asConstituent])
      expect(statements.map((s) => s.rows)).toEqual([1, 1])
      expect(allPlans(statements)).toEqual([
        'SEARCH household_matches USING INDEX household_matches_by_constituent (organization_id=? AND constituent_id=?)',
        'SEARCH household_matches USING INDEX household_matches_by_candidate (organization_id=? AND candidate_constituent_id=?)',
      ])
    })

    test("a household's members are read by its index, oldest first", async () => {
      const { result, statements } = await recording.measure((r) => r.constituents.listByHousehold(big.id, planted.household.id))

      expect(result).toEqual(Object.values(people))
      expect(statements.map((s) => s.rows)).toEqual([Object.keys(people).length])
      expect(allPlans(statements)).toEqual([
        'SEARCH constituents USING INDEX constituents_by_household (organization_id=? AND household_id=?)',
      ])
    })

    test('a key without a match reads no row at all', async () => {
      const { result, statements } = await recording.measure((r) =>
        r.constituents.findByMatchKeys(middle.id, matchKeysOf({ phone: '+19999999999', email: 'nobody@example.org' }), newcomer.id, 20),
      )

      expect(result).toEqual([])
      expect(statements.map((s) => s.rows)).toEqual([0, 0])
      expect(scansOfConstituents(allPlans(statements))).toEqual([])
    })
  })

  describe('search', () => {
    /** The FTS match the adapter sent, and how many rows the index itself answers for it. */
    function ftsMatches(statements: Recorded[]) {
      // Each word of a MATCH is a quoted prefix.
      const match = statements.flatMap((s) => s.params).find((p) => typeof p === 'string' && p.endsWith('"*')) as string
      const { n } = planner.query('SELECT count(*) AS n FROM constituent_search WHERE constituent_search MATCH ?').get(match) as {
        n: number
      }
      return n
    }

    for (const [query, expected] of [
      ['xiom quis', ['namesake', 'sameNameBirth', 'original']],
      ['QUÍSPE', ['namesake', 'sameLastStreet', 'sameNameBirth', 'original']],
      ['+1 (555) 000-1000', ['samePhone', 'original']],
      ['5550002', ['namesake', 'sameLastStreet', 'sameNameBirth']],
      // Any part of a number: the middle and the end, still one look in the index.
      ['50001000', ['samePhone', 'original']],
      ['5000200', ['namesake', 'sameLastStreet', 'sameNameBirth']],
    ] as const) {
      test(`"${query}" is driven by the FTS index and reads only the matching rows`, async () => {
        const { result, statements } = await recording.measure((r) => search(r, big.id, query))

        expect(result).toEqual({ items: expected.map((name) => people[name]), total: expected.length })
        // The total from the index alone (the words as whole terms first, then as prefixes), then the page:
        // few matches, read by their key.
        const [whole, count, page] = statements
        expect(statements).toHaveLength(3)
        for (const counting of [whole!, count!]) {
          expect(counting.rows).toBe(1)
          expect(planOf(counting).filter((line) => / constituents\b/.test(line))).toEqual([])
        }
        expect(page!.rows).toBe(expected.length)
        // The index answers exactly the rows read from constituents, each found by its key.
        expect(ftsMatches(statements)).toBe(expected.length)
        const pagePlan = planOf(page!)
        expect(pagePlan.some((line) => line.includes('constituent_search VIRTUAL TABLE'))).toBe(true)
        expect(pagePlan.filter((line) => / constituents\b/.test(line))).toEqual(['SEARCH constituents USING INTEGER PRIMARY KEY (rowid=?)'])
      })
    }

    test('a query of many matches counts up to the bound in the index and reads one page walking the organization newest first', async () => {
      const olgas = constituents.filter((c) => c.organizationId === big.id && c.firstName === 'Olga').length
      const { result, statements } = await recording.measure((r) => search(r, big.id, 'o'))

      // The Olgas of the background and Zed Ortiz, the newest of them: more than the bound, so the total is it.
      expect(olgas).toBeGreaterThan(SEARCH_TOTAL_BOUND)
      expect(result.total).toBe(SEARCH_TOTAL_BOUND)
      expect(result.totalIsLowerBound).toBe(true)
      expect(result.items[0]).toEqual(people.sameEmail)
      expect(result.items.slice(1).every((c) => c.firstName === 'Olga')).toBe(true)
      expect(ftsMatches(statements)).toBe(olgas + 1)
      // "o" is no whole term; as a prefix the count reads the index alone, and no further than one past the bound.
      const [, count, page] = statements
      expect(statements).toHaveLength(3)
      expect(planOf(count!).filter((line) => / constituents\b/.test(line))).toEqual([])
      expect(count!.params).toContain(SEARCH_TOTAL_BOUND + 1)
      // The page: the organization in list order, no sort, no set of matches gathered first (no subquery, no
      // index of the search); each row's own terms are tested and the walk stops at the page's 25th match.
      expect(planOf(page!)).toEqual(['SEARCH constituents USING INDEX constituents_newest (organization_id=?)'])
      expect(page!.rows).toBe(25)
      expect((await search(sqlite.persistence.repositories, small.id, 'x')).items).toEqual([twin])
    })

    test('a common whole name is counted as a whole term, read as FTS5 goes, up to the bound: one count and the walk', async () => {
      const { result, statements } = await recording.measure((r) => search(r, big.id, 'olga'))

      expect(result).toMatchObject({ total: SEARCH_TOTAL_BOUND, totalIsLowerBound: true })
      expect(result.items.every((c) => c.firstName === 'Olga')).toBe(true)
      const [count, page] = statements
      expect(statements).toHaveLength(2)
      // The word as a whole term (no `*`): its list is read as it goes, so the count stops one past the bound.
      expect(count!.params).toContain(SEARCH_TOTAL_BOUND + 1)
      expect(count!.params.some((p) => typeof p === 'string' && p.endsWith('tolga"'))).toBe(true)
      expect(planOf(page!)).toEqual(['SEARCH constituents USING INDEX constituents_newest (organization_id=?)'])
      expect(page!.rows).toBe(25)
    })

    test('a page past the bound still counts to its end, so the next one is known, and stays in list order', async () => {
      const deep = { page: SEARCH_TOTAL_BOUND / 25 + 2, limit: 25 }
      const fromSqlite = await search(sqlite.persistence.repositories, big.id, 'o', deep)

      expect(fromSqlite).toEqual(await search(memory.repositories, big.id, 'o', deep))
      expect(fromSqlite.total).toBe(deep.page * deep.limit)
      expect(fromSqlite.totalIsLowerBound).toBe(true)
      expect(fromSqlite.items).toHaveLength(25)
    })

    test('an email is one indexed equality', async () => {
      const { result, statements } = await recording.measure((r) => search(r, big.id, 'Xiomara.Quispe@example.org'))

      expect(result).toEqual({ items: [people.sameEmail, people.original], total: 2 })
      expect(statements.map((s) => s.rows)).toEqual([1, 2])
      for (const plan of statements.map(planOf)) {
        expect(plan.filter((line) => / constituents\b/.test(line))).toEqual([
          'SEARCH constituents USING INTEGER PRIMARY KEY (rowid=?)',
          'SEARCH constituents USING COVERING INDEX constituents_by_email (organization_id=? AND email_key=?)',
        ])
      }
    })

    test('an empty query reads one page in index order, never sorting nor counting the organization', async () => {
      const { result, statements } = await recording.measure((r) => search(r, middle.id, '', { page: 3, limit: 25 }))

      expect(result.items).toHaveLength(25)
      expect(result.total).toBe(SIZES[1])
      const [page, total] = statements
      expect(planOf(page!)).toEqual(['SEARCH constituents USING INDEX constituents_newest (organization_id=?)'])
      expect(page!.rows).toBe(25)
      // The total is one row kept by triggers, not a count of the organization's constituents.
      expect(planOf(total!)).toEqual(['SEARCH constituent_counts USING INDEX sqlite_autoindex_constituent_counts_1 (organization_id=?)'])
      expect(total!.rows).toBe(1)
    })
  })

  describe('memory and SQLite answer alike', () => {
    const queries = [
      'xiom quis',
      'quispe',
      'mar',
      'gar',
      'o',
      'zoe',
      'sofia gar',
      'MARÍA',
      '555 000 1000',
      '+1 300 000',
      '3000000',
      'user123@example.org',
      'nobody@example.org',
      '',
    ]

    test('on searches, pages and totals', async () => {
      const asks: Array<[Organization, PageRequest]> = [
        [big, { page: 1, limit: 25 }],
        [small, { page: 4, limit: 10 }],
      ]
      for (const [organization, page] of asks) {
        for (const query of queries) {
          const fromSqlite = await search(sqlite.persistence.repositories, organization.id, query, page)
          const fromMemory = await search(memory.repositories, organization.id, query, page)
          expect({ query, ids: ids(fromSqlite.items), total: fromSqlite.total }).toEqual({
            query,
            ids: ids(fromMemory.items),
            total: fromMemory.total,
          })
          expect(fromSqlite).toEqual(fromMemory)
        }
      }
      // The broad queries really are broad: the comparison is not between two empty answers.
      expect(await search(sqlite.persistence.repositories, big.id, 'mar')).toMatchObject({
        total: SEARCH_TOTAL_BOUND,
        totalIsLowerBound: true,
      })
    })

    test('on duplicate lookups', async () => {
      const sample = [constituents[17]!, constituents[SIZES[0] + 4_321]!, constituents[SIZES[0] + SIZES[1] + 99]!]
      const lookups: Array<[string, MatchKeys, string]> = [
        [big.id, matchKeysOf(newcomer), newcomer.id],
        [small.id, matchKeysOf(newcomer), newcomer.id],
        ...sample.map((c): [string, MatchKeys, string] => [c.organizationId, matchKeysOf(c), c.id]),
        ...sample.map((c): [string, MatchKeys, string] => [c.organizationId, matchKeysOf(c), newcomer.id]),
      ]
      for (const [organizationId, keys, excludeId] of lookups) {
        const fromSqlite = await sqlite.persistence.repositories.constituents.findByMatchKeys(organizationId, keys, excludeId, 20)
        const fromMemory = await memory.repositories.constituents.findByMatchKeys(organizationId, keys, excludeId, 20)
        expect(byId(fromSqlite)).toEqual(byId(fromMemory))
      }
    })
  })
})
