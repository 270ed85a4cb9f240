// Constituent search in process, at the benchmark's two sizes
// (docs/performance/bounds.md "Constituent search"): at
// 10,000 and 1,000,000 needs each of its three organizations holds 1,000 and 100,000 people. One organization
// of each size, with the benchmark's names, is written through the port into a fresh SQLite file or
// PostgreSQL database; each query is then searched `--rounds` times through the repository (the first page of
// 25 and its total, as `GET /api/constituents?query=` asks), and the median and 99th percentile printed.
//
//   bun scripts/bench/search.ts [--database sqlite|postgres] [--small 1000] [--large 100000] [--rounds 1000]
//
// PostgreSQL uses TEST_POSTGRES_URL's server (scripts/pg-test-cluster.sh) and a database of its own, dropped
// at the end.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { PostgresDatabase } from '../../src/adapters/persistence/postgres/postgres-database'
import { SqliteDatabase } from '../../src/adapters/persistence/sqlite/sqlite-database'
import type { Persistence } from '../../src/application/ports/persistence'
import type { Constituent, Household } from '../../src/domain/constituents/constituent'
import { parseConstituentQuery } from '../../src/domain/constituents/search'
import { FIRST, LAST, random } from './seed'

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    small: { type: 'string', default: '1000' },
    large: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '1000' },
  },
})
const QUERIES = ['garcia', 'maria', 'smith', 'nguyen', 'maria garcia', '555 12']

/** The database, what makes it ready to be read once written (statistics), and how it goes away. */
async function openDatabase(): Promise<{ persistence: Persistence; settle(): Promise<void>; drop(): Promise<void> }> {
  if (values.database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'intake-search-bench-'))
    const persistence = new SqliteDatabase(join(dir, 'intake.sqlite'))
    return { persistence, settle: async () => {}, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const server = process.env.TEST_POSTGRES_URL
  if (!server) throw new Error('TEST_POSTGRES_URL names the PostgreSQL server')
  const name = `intake_search_bench_${Date.now()}`
  const admin = postgres(server, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  return {
    persistence: new PostgresDatabase(url.toString()),
    // As autovacuum would: until then the GIN index keeps new entries in its pending list.
    settle: async () => {
      const client = postgres(url.toString(), { max: 1, onnotice: () => {} })
      await client`VACUUM ANALYZE constituents`
      await client.end()
    },
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

/** An organization of `people`, in households of one to four sharing a last name, created over three years. */
async function organizationOf(persistence: Persistence, people: number, seed: number): Promise<string> {
  const next = random(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
  const organizationId = crypto.randomUUID()
  const epoch = Date.UTC(2024, 0, 1)
  await persistence.unitOfWork.run((r) =>
    r.organizations.insert({
      id: organizationId,
      name: `Search ${people}`,
      defaultCountry: 'US',
      slug: `search-${seed}`,
      maxConcurrency: 5,
      createdAt: new Date(epoch),
    }),
  )
  for (let written = 0; written < people; ) {
    const households: Household[] = []
    const constituents: Constituent[] = []
    while (constituents.length < 2_000 && written < people) {
      const createdAt = new Date(epoch + Math.floor(next() * 3 * 365 * 86_400_000))
      const household = { id: crypto.randomUUID(), organizationId, createdAt }
      households.push(household)
      const lastName = pick(LAST)
      for (let member = 1 + Math.floor(next() * 4); member > 0 && written < people; member--, written++) {
        const phone = `+1555${String(Math.floor(next() * 10_000_000)).padStart(7, '0')}`
        const person = { id: crypto.randomUUID(), organizationId, householdId: household.id, firstName: pick(FIRST), lastName, phone }
        constituents.push({ ...person, createdAt, updatedAt: createdAt })
      }
    }
    await persistence.unitOfWork.run(async (r) => {
      await r.constituents.insertHouseholds(households)
      await r.constituents.insertMany(constituents)
    })
  }
  return organizationId
}

const { persistence, settle, drop } = await openDatabase()
try {
  await persistence.migrate()
  const sizes = [Number(values.small), Number(values.large)]
  const organizations = []
  for (const [i, people] of sizes.entries()) organizations.push(await organizationOf(persistence, people, i + 1))
  await settle()
  console.log(`${values.database}, ${values.rounds} searches each (page 1 of 25 and its total), µs:`)
  console.log('| query | people | matches (total) | p50 | p99 |')
  for (const query of QUERIES) {
    for (const [i, organizationId] of organizations.entries()) {
      const parsed = parseConstituentQuery(query)
      const search = () => persistence.repositories.constituents.search(organizationId, parsed, { page: 1, limit: 25 })
      const found = await search()
      for (let warm = 0; warm < 50; warm++) await search()
      const times: number[] = []
      for (let round = 0; round < Number(values.rounds); round++) {
        const started = performance.now()
        await search()
        times.push((performance.now() - started) * 1000)
      }
      times.sort((a, b) => a - b)
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0)
      const total = `${found.totalIsLowerBound ? 'more than ' : ''}${found.total.toLocaleString('en-US')}`
      console.log(`| ${query} | ${sizes[i]!.toLocaleString('en-US')} | ${total} | ${at(0.5)} | ${at(0.99)} |`)
    }
  }
} finally {
  await persistence.close()
  await drop()
}
