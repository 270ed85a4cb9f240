import { afterAll, beforeAll } from 'bun:test'
import { Database } from 'bun:sqlite'
import { MemoryPersistence } from '../../../src/adapters/persistence/memory/memory-persistence'
import type { Persistence } from '../../../src/application/ports/persistence'
import type { Constituent, Household } from '../../../src/domain/constituents/constituent'
import type { Organization } from '../../../src/domain/organizations/organization'
import { aConstituent, aHousehold, anOrganization } from '../../support/builders'
import { minute } from './contract-support'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'
import { planOf as planOfStatement, recordingRepositories, type Recorded } from './recording-sqlite'

// What the SQLite scale tests share (sqlite-scale-duplicate-lookup.test.ts, sqlite-scale-search.test.ts): duplicate
// detection and search read a number of rows that does not grow with the constituents.
// 20,000 constituents in three organizations go in through the port; the statements the SQLite adapter runs
// are recorded, explained (EXPLAIN QUERY PLAN) and their rows counted on a read-only connection of the file.
// The people are made once, here; each test file gets stores of its own (`storeTheConstituents`), in SQLite and
// in memory, and its tests reach them through the bindings below.

export const SIZES = [12_000, 6_000, 2_000] as const
const PER_HOUSEHOLD = 5
const CHUNK = 5_000

/** A small deterministic generator (mulberry32): the same 20,000 people on every run. */
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

// Ten first names: each is held by about 1,200 of the big organization's 12,000, past the search's count bound (1,000).
const FIRST = ['María', 'José', 'Chloé', 'Wei', 'Olga', 'Emily', 'Sofía', 'Zoë', 'Mateo', 'Kofi']
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

/** Through the port's batch inserts (an import's), in units of CHUNK: row by row, SQLite took over a
 * minute on a busy machine (and each of memory's units copies what it holds: few and large). */
async function seed(persistence: Persistence, organizations: Organization[], households: Household[], constituents: Constituent[]) {
  await persistence.unitOfWork.run(async (r) => {
    for (const organization of organizations) await r.organizations.insert(organization)
    await r.constituents.insertHouseholds(households)
  })
  for (let start = 0; start < constituents.length; start += CHUNK) {
    await persistence.unitOfWork.run((r) => r.constituents.insertMany(constituents.slice(start, start + CHUNK)))
  }
}

export const organizations = SIZES.map(() => anOrganization())
export const [big, middle, small] = organizations as [Organization, Organization, Organization]
export const planted = plantedIn(big.id)
const households: Household[] = [planted.household]
export const constituents: Constituent[] = []
let offset = 0
for (const [index, organization] of organizations.entries()) {
  const background = backgroundOf(organization, SIZES[index]!, offset)
  offset += SIZES[index]!
  households.push(...background.households)
  constituents.push(...background.constituents)
}
const twinHousehold = aHousehold({ organizationId: small.id })
export const twin = aConstituent({ organizationId: small.id, householdId: twinHousehold.id, ...XIOMARA })
households.push(twinHousehold)
constituents.push(...Object.values(planted.people), twin)
/** Who registers next: Xiomara again, not stored yet. */
export const newcomer = aConstituent({ organizationId: big.id, householdId: planted.household.id, ...XIOMARA })
export const { people } = planted

export let sqlite: SqliteFixture
export let memory: MemoryPersistence
export let recording: ReturnType<typeof recordingRepositories>
export let planner: Database

/** The SQLite file once the 20,000 are in: storing them is most of these tests' time, so it is done once a process. */
let storedFile: Uint8Array | undefined

/** Stores the 20,000 in a SQLite file and in memory before the tests of the describe it is called in, and drops them after. */
export function storeTheConstituents(): void {
  beforeAll(async () => {
    sqlite = await makeSqlite(storedFile)
    memory = new MemoryPersistence()
    if (!storedFile) await seed(sqlite.persistence, organizations, households, constituents)
    await seed(memory, organizations, households, constituents)
    recording = recordingRepositories(sqlite.path)
    planner = new Database(sqlite.path, { readonly: true })
    storedFile ??= planner.serialize()
  }, 60_000)

  afterAll(async () => {
    planner?.close()
    recording?.close()
    await memory?.close()
    await sqlite?.cleanup()
  })
}

/** The detail lines of EXPLAIN QUERY PLAN for one recorded statement. */
export const planOf = (statement: Recorded) => planOfStatement(planner, statement)
