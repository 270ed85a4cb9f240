// The import at its limit
// (docs/performance/exports-import-memory.md "Import"): a file of `--rows` constituents or needs (50,000 by
// default, the most one file may hold) into an organization of its own, through the real service (`intake
// serve`): a dry run, the import, and the same file again (which creates nothing). Prints each one's counts
// and time, and the service's resident memory at its highest (sampled every 20 ms).
//
//   bun scripts/bench/import.ts [--rows 50000] [--what constituents|needs] [--db sqlite|postgres]
//
// PostgreSQL needs BENCH_POSTGRES_URL (a cluster it may create a database in).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { BENCH_PASSWORD, BENCH_SECRETS } from './seed'
import { logIn, ROOT, startServer } from './server'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000' },
    what: { type: 'string', default: 'constituents' },
    db: { type: 'string', default: 'sqlite' },
  },
})
const what = values.what === 'needs' ? 'needs' : 'constituents'
const rows = Number(values.rows)
const dir = mkdtempSync(join(tmpdir(), 'intake-import-bench-'))
const database = await freshDatabase()
const env = { ...BENCH_SECRETS, DATABASE_URL: database.url, LOG_LEVEL: 'warn' }
const slug = 'import-bench'
const adminEmail = 'admin@import-bench.example.org'

const organization = Bun.spawnSync(
  [
    process.execPath,
    'src/main/cli.ts',
    'org',
    'create',
    '--name',
    'Import bench',
    '--slug',
    slug,
    '--admin-email',
    adminEmail,
    '--admin-password',
    BENCH_PASSWORD,
  ],
  { cwd: ROOT, env: { ...process.env, ...env }, stdout: 'ignore', stderr: 'inherit' },
)
if (organization.exitCode !== 0) throw new Error('org create failed')

const service = await startServer(['src/main/cli.ts', 'serve'], env, { readyPath: '/readyz' })
const { base, rss } = service
try {
  const accessToken = await logIn(base, adminEmail)
  const file = what === 'needs' ? needsFile(rows) : peopleFile(rows)
  console.log(
    `${values.db}, ${rows.toLocaleString()} ${what}, ${(file.length / 1e6).toFixed(1)} MB; service idle: ${rss().toFixed(0)} MB RSS`,
  )
  for (const [label, query] of [
    ['dry run', '?dryRun=true'],
    ['import', ''],
    ['second run', ''],
  ] as const) {
    let peak = rss()
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20)
    const started = performance.now()
    const response = await fetch(`${base}/api/${what}/import${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'text/csv' },
      body: file,
    })
    const report = (await response.json()) as { rows: number; created: number; skipped: number; errors: unknown[] }
    clearInterval(sampler)
    const seconds = (performance.now() - started) / 1000
    console.log(
      `${label}: ${response.status}, ${report.rows} rows, ${report.created} created, ${report.skipped} skipped, ${report.errors?.length} errors in ${seconds.toFixed(1)} s; service peak ${peak.toFixed(0)} MB RSS`,
    )
  }
} finally {
  await service.stop()
  await database.drop()
  rmSync(dir, { recursive: true, force: true })
}

/**
 * `rows` people as an organization's spreadsheet holds them: every field filled, one in twenty the same
 * person as an earlier row (skipped), one in fifty with a bad phone (refused); the same file on every run.
 */
function peopleFile(count: number): string {
  const lines = ['firstName,lastName,phone,email,dateOfBirth,addressStreet,addressCity,addressState,addressZip']
  for (let i = 0; i < count; i++) {
    const n = i % 20 === 19 ? i - 1 : i
    const phone = i % 50 === 49 ? '555-0100' : `+1503${String(1_000_000 + n).padStart(7, '0')}`
    const day = String((n % 28) + 1).padStart(2, '0')
    lines.push(`Given${n},Family${n % 997},${phone},p${n}@example.org,1980-01-${day},${n} Main St,Portland,OR,97201`)
  }
  return `${lines.join('\r\n')}\r\n`
}

/**
 * `count` needs as an organization's spreadsheet holds them: over two years, half with the person's name and
 * phone (each a constituent, as on intake), one in twenty the same request as an earlier row, one in fifty
 * with an unknown status.
 */
function needsFile(count: number): string {
  const lines = ['partnerId,status,description,customFields,createdAt']
  const start = Date.parse('2024-01-01T00:00:00Z')
  for (let i = 0; i < count; i++) {
    const n = i % 20 === 19 ? i - 1 : i
    const status = i % 50 === 49 ? 'OPEN' : ['NEW', 'IN_PROGRESS', 'RESOLVED'][n % 3]
    const person = n % 2 === 0 ? `"{""firstName"":""Given${n}"",""phone"":""+1503${String(2_000_000 + n).padStart(7, '0')}""}"` : '{}'
    const at = new Date(start + n * 1_200_000).toISOString()
    lines.push(`,${status},Food for a family of ${(n % 6) + 1},${person},${at}`)
  }
  return `${lines.join('\r\n')}\r\n`
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (values.db !== 'postgres') return { url: `sqlite:${join(dir, 'intake.sqlite')}`, drop: async () => {} }
  const cluster = process.env.BENCH_POSTGRES_URL
  if (!cluster) throw new Error('--db postgres needs BENCH_POSTGRES_URL')
  const name = `bench_import_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`
  const admin = postgres(cluster, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(cluster)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(cluster, { max: 1, onnotice: () => {} })
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}
