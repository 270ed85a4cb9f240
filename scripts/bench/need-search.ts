// Need search in process (docs/api/needs.md "Search and sort"): one organization of `--needs` needs, each
// described by a few words of a small vocabulary (one word, "help", in half of them) and half with a
// person's name, written through the port into a fresh SQLite file or PostgreSQL database; each query is then
// searched `--rounds` times through the repository (the first page of 25 and its total, as
// `GET /api/needs?q=` asks), and the median and 99th percentile printed.
//
//   bun scripts/bench/need-search.ts [--database sqlite|postgres] [--needs 100000] [--rounds 200]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { PostgresDatabase } from '../../src/adapters/persistence/postgres/postgres-database'
import { SqliteDatabase } from '../../src/adapters/persistence/sqlite/sqlite-database'
import type { Persistence } from '../../src/application/ports/persistence'
import type { UnnumberedNeed } from '../../src/application/ports/repositories/need-repository'
import { needQueryWords, type NeedSort } from '../../src/domain/needs/search'
import { FIRST, LAST, random } from './seed'

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    needs: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '200' },
  },
})
const WORDS = ['rent', 'food', 'coats', 'eviction', 'utility', 'bill', 'medicine', 'ride', 'clinic', 'school', 'diapers', 'shelter']
const QUERIES: Array<[string, NeedSort | undefined]> = [
  ['help', undefined],
  ['help', 'dueDate'],
  ['h', undefined],
  ['eviction', undefined],
  ['help rent', undefined],
  ['maria', undefined],
  ['zzz', undefined],
]

async function openDatabase(): Promise<{ persistence: Persistence; settle(): Promise<void>; drop(): Promise<void> }> {
  if (values.database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'intake-need-search-bench-'))
    const persistence = new SqliteDatabase(join(dir, 'intake.sqlite'))
    return { persistence, settle: async () => {}, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const server = process.env.TEST_POSTGRES_URL
  if (!server) throw new Error('TEST_POSTGRES_URL names the PostgreSQL server')
  const name = `intake_need_search_bench_${Date.now()}`
  const admin = postgres(server, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  return {
    persistence: new PostgresDatabase(url.toString()),
    // As autovacuum would after a bulk load: the planner's statistics of the new rows.
    settle: async () => {
      const client = postgres(url.toString(), { max: 1, onnotice: () => {} })
      await client`ANALYZE needs, need_terms`
      await client.end()
    },
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

const { persistence, settle, drop } = await openDatabase()
try {
  await persistence.migrate()
  const next = random(7)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
  const organizationId = crypto.randomUUID()
  const partnerId = crypto.randomUUID()
  const epoch = Date.UTC(2024, 0, 1)
  await persistence.unitOfWork.run(async (r) => {
    await r.organizations.insert({
      id: organizationId,
      name: 'Need search',
      defaultCountry: 'US',
      slug: 'need-search',
      maxConcurrency: 5,
      createdAt: new Date(epoch),
    })
    await r.partners.insert({
      id: partnerId,
      organizationId,
      name: 'All',
      slaHours: 72,
      isArchived: false,
      isDefault: true,
      createdAt: new Date(epoch),
    })
  })
  for (let written = 0; written < Number(values.needs); ) {
    const batch: UnnumberedNeed[] = []
    for (; batch.length < 2_000 && written < Number(values.needs); written++) {
      const createdAt = new Date(epoch + Math.floor(next() * 3 * 365 * 86_400_000))
      const description = [...(next() < 0.5 ? ['help'] : []), pick(WORDS), pick(WORDS), 'with', 'the', pick(WORDS)].join(' ')
      const names = next() < 0.5 ? { firstName: pick(FIRST), lastName: pick(LAST) } : {}
      batch.push({
        id: crypto.randomUUID(),
        organizationId,
        partnerId,
        status: 'NEW',
        customFields: { description, ...names },
        isConfidential: false,
        createdAt,
        updatedAt: createdAt,
        dueDate: new Date(createdAt.getTime() + 72 * 3_600_000),
        dueDateSetByHand: false,
      })
    }
    await persistence.unitOfWork.run((r) => r.needs.insertMany(batch))
  }
  await settle()
  console.log(`${values.database}, ${values.needs} needs, ${values.rounds} searches each (page 1 of 25 and its total), µs:`)
  console.log('| q | sort | matches (total) | p50 | p99 |')
  for (const [q, sort] of QUERIES) {
    const search = { words: needQueryWords(q), kinds: ['r' as const, 'd' as const, 'n' as const] }
    const run = () => persistence.repositories.needs.list(organizationId, { search }, { page: 1, limit: 25 }, sort)
    const found = await run()
    const times: number[] = []
    for (let round = 0; round < Number(values.rounds); round++) {
      const started = performance.now()
      await run()
      times.push((performance.now() - started) * 1000)
    }
    times.sort((a, b) => a - b)
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(0)
    const total = `${found.totalIsLowerBound ? 'more than ' : ''}${found.total.toLocaleString('en-US')}`
    console.log(`| ${q} | ${sort ?? '-createdAt'} | ${total} | ${at(0.5)} | ${at(0.99)} |`)
  }
} finally {
  await persistence.close()
  await drop()
}
