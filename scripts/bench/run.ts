// npm run bench: seeds realistic data, starts the real service as a user would (`intake serve`) beside a bare
// Elysia route (bare.ts), drives both on loopback with wrk (autocannon when wrk is not installed), and prints
// req/s, p50 and p99 per route with the ratio to the bare route measured in the same run. See
// docs/performance.md.
//
//   npm run bench -- [--db sqlite,postgres] [--sizes 10000,1000000] [--duration 10] [--connections 32] [--seed 1]
//   npm run bench -- --route 'list 25 needs' --route 'list 25 overdue needs'   (those routes alone, beside the plain insert)
//   BENCH_DRIVER=autocannon npm run bench   (autocannon even where wrk is installed)
//
// PostgreSQL needs BENCH_POSTGRES_URL (a cluster it may create databases in); with it set, --db defaults to
// both. Seeded data is kept in ./bench-data (SQLite) or in databases named bench_<shape>_<needs>_<seed>
// (PostgreSQL) and reused by later runs.
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { chromiumAvailable } from '../../tests/support/browser'
import { measureConsole, type ConsoleFigures } from './console'
import { drive, driverName, type BenchRequest, type Load } from './drive'
import { benchData, logIn, ROOT, startServer, type RunningServer } from './server'
import { PLAIN_INSERT, printReport, type Memory, type Row } from './report'
import { BENCH_PASSWORD, BENCH_SECRETS, random, seed, type SeededOrganization } from './seed'

const { values } = parseArgs({
  options: {
    // Both databases where a PostgreSQL cluster is named, SQLite alone otherwise.
    db: { type: 'string', default: process.env.BENCH_POSTGRES_URL ? 'sqlite,postgres' : 'sqlite' },
    sizes: { type: 'string', default: '10000,1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    seed: { type: 'string', default: '1' },
    // Routes by their names in the report; every route when none is named.
    route: { type: 'string', multiple: true, default: [] },
  },
})
const DATA = benchData()
const seedNumber = Number(values.seed)
const load: Load = { duration: Number(values.duration), connections: Number(values.connections) }

/** How long the service rests after its start and first login before its idle memory is read. */
const IDLE_SETTLE_MS = 3000

/** In the names of kept seeded data: a change to what seed.ts writes bumps it, so old data is not reused. */
const SEED_SHAPE = 'v3'

/** The database for `needs` needs, seeded once and reused: a working copy of the SQLite file, or a PostgreSQL database. */
async function database(kind: string, needs: number): Promise<{ url: string; bare: string }> {
  const plan = { organizations: 3, needs, constituents: Math.round(needs * 0.3), seed: seedNumber }
  const progress = (done: number, total: number) =>
    process.stderr.write(`\r  seeding ${needs.toLocaleString()} needs: ${Math.floor((done / total) * 100)}%`)
  if (kind === 'postgres') {
    const admin = process.env.BENCH_POSTGRES_URL
    if (!admin) throw new Error('--db postgres needs BENCH_POSTGRES_URL')
    const name = `bench_${SEED_SHAPE}_${needs}_${seedNumber}`
    const url = new URL(admin)
    url.pathname = `/${name}`
    const sql = postgres(admin, { max: 1, onnotice: () => {} })
    const exists = (await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0
    if (!exists) {
      await sql.unsafe(`CREATE DATABASE ${name}`)
      await seed(url.toString(), plan, progress)
      process.stderr.write('\n')
      // What autovacuum does soon after a bulk load, done before measuring rather than during it: without
      // statistics the planner skips the search index, and without the visibility map index-only scans read the table.
      const seeded = postgres(url.toString(), { max: 1, onnotice: () => {} })
      await seeded`VACUUM ANALYZE`
      await seeded.end()
    }
    await sql.end()
    return { url: url.toString(), bare: url.toString() }
  }
  const seeded = join(DATA, `sqlite-${SEED_SHAPE}-${needs}-${seedNumber}.sqlite`)
  if (!existsSync(seeded)) {
    await seed(`sqlite:${seeded}.partial`, plan, progress)
    process.stderr.write('\n')
    copyFileSync(`${seeded}.partial`, seeded)
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${seeded}.partial${suffix}`, { force: true })
  }
  migrateKept(seeded)
  const working = join(DATA, `working-${needs}.sqlite`)
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${working}${suffix}`, { force: true })
  copyFileSync(seeded, working)
  return { url: `sqlite:${working}`, bare: working }
}

/**
 * Brings kept seeded data up to the service's migrations once, so that each run's working copy starts
 * current: otherwise every run would migrate (and first back up) a copy of up to 2 GB. The backup taken
 * here is of data the seed can make again.
 */
function migrateKept(seeded: string) {
  const migrate = Bun.spawnSync([process.execPath, 'src/main/cli.ts', 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, ...BENCH_SECRETS, DATABASE_URL: `sqlite:${seeded}`, LOG_LEVEL: 'warn' },
    stderr: 'inherit',
  })
  if (migrate.exitCode !== 0) throw new Error(`migrating ${seeded} failed`)
  for (const backup of readdirSync(DATA).filter((name) => name.startsWith(`${basename(seeded)}.pre-`))) rmSync(join(DATA, backup))
}

/** The service as a user starts it, at its default LOG_LEVEL (the access log on) unless `logLevel` says otherwise. */
function startService(url: string, logLevel?: string): Promise<RunningServer> {
  const env: Record<string, string> = {
    ...BENCH_SECRETS,
    DATABASE_URL: url,
    AUTH_RATE_LIMIT: '1000000',
    PUBLIC_INTAKE_RATE_LIMIT: '1000000',
  }
  return startServer(['src/main/cli.ts', 'serve'], logLevel ? { ...env, LOG_LEVEL: logLevel } : env, {
    readyPath: '/readyz',
    log: join(DATA, `service-${logLevel ?? 'default'}.log`),
  })
}

async function measure(kind: string, needs: number): Promise<{ rows: Row[]; console?: ConsoleFigures; memory: Memory }> {
  const db = await database(kind, needs)
  const service = await startService(db.url)
  const bare = await startServer(
    ['scripts/bench/bare.ts'],
    { JWT_SECRET: BENCH_SECRETS.JWT_SECRET, BARE_DATABASE: db.bare },
    { readyPath: '/bare/needs/x', log: join(DATA, 'bare.log') },
  )
  const base = service.base
  const bareBase = bare.base
  try {
    const organization: Pick<SeededOrganization, 'slug' | 'adminEmail'> = { slug: 'bench-1', adminEmail: 'admin@bench-1.example.org' }
    const accessToken = await logIn(base, organization.adminEmail)
    await Bun.sleep(IDLE_SETTLE_MS)
    const idle = service.rss()
    const get = async (path: string) =>
      (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${accessToken}` } })).json() as Promise<any>
    const needIds: string[] = []
    for (let page = 1; page <= 5; page++)
      needIds.push(...((await get(`/api/needs?limit=100&page=${page * 7}`)) as Array<{ id: string }>).map((n) => n.id))
    const settings = await get('/api/organizations/settings')
    const partnerId = ((await get('/api/partners')) as Array<{ id: string }>)[0]!.id
    const next = random(seedNumber)
    const person = () => ({
      firstName: ['Maria', 'James', 'Ana', 'Luis'][Math.floor(next() * 4)],
      lastName: ['Garcia', 'Smith', 'Nguyen', 'Okafor'][Math.floor(next() * 4)],
      phone: `+1555${String(Math.floor(next() * 10_000_000)).padStart(7, '0')}`,
    })
    const many = <T>(make: (i: number) => T) => Array.from({ length: 500 }, (_, i) => make(i))
    // `bare` is the bare route doing the same single statement; routes without one are compared with the
    // bare read (reads) or the bare insert (writes) in the table.
    const routes: Array<{ route: string; requests: BenchRequest[]; bare?: BenchRequest[] }> = [
      {
        route: 'read one need',
        requests: many((i) => ({ method: 'GET', path: `/api/needs/${needIds[i % needIds.length]}` })),
        bare: many((i) => ({ method: 'GET', path: `/bare/needs/${needIds[i % needIds.length]}` })),
      },
      {
        route: 'list 25 needs',
        requests: [{ method: 'GET', path: '/api/needs?limit=25' }],
        bare: [{ method: 'GET', path: '/bare/needs' }],
      },
      {
        route: 'list 25 needs by status',
        requests: [{ method: 'GET', path: '/api/needs?limit=25&status=IN_PROGRESS' }],
        bare: [{ method: 'GET', path: '/bare/needs?status=IN_PROGRESS' }],
      },
      {
        route: 'list 25 overdue needs',
        requests: [{ method: 'GET', path: '/api/needs?limit=25&overdue=true' }],
      },
      {
        route: 'needs report, a month',
        requests: [{ method: 'GET', path: '/api/reports/needs?from=2026-10-01&to=2026-10-31' }],
      },
      {
        route: 'needs report, a year',
        requests: [{ method: 'GET', path: '/api/reports/needs?from=2025-11-01&to=2026-10-31' }],
      },
      {
        route: 'constituent search',
        requests: many((i) => ({ method: 'GET', path: `/api/constituents?query=${['garcia', 'maria', 'smith', 'nguyen'][i % 4]}` })),
      },
      {
        route: 'create a need',
        requests: many(() => ({
          method: 'POST',
          path: '/api/needs',
          body: { partnerId, customFields: { description: 'Needs groceries' } },
        })),
        bare: many(() => ({ method: 'POST', path: '/bare/needs', body: { partnerId, customFields: { description: 'Needs groceries' } } })),
      },
      {
        route: 'public intake (duplicate check)',
        requests: many(() => ({
          method: 'POST',
          path: '/api/needs/public',
          body: { organizationId: settings.id, description: 'Help with rent', customFields: person() },
        })),
      },
      {
        route: 'add a note',
        requests: many((i) => ({
          method: 'POST',
          path: `/api/needs/${needIds[i % needIds.length]}/notes`,
          body: { content: 'Called back, left a message' },
        })),
      },
      {
        route: 'login',
        requests: [{ method: 'POST', path: '/api/auth/login', body: { email: organization.adminEmail, password: BENCH_PASSWORD } }],
      },
    ]
    const unknown = values.route.filter((name) => !routes.some((r) => r.route === name))
    if (unknown.length > 0) throw new Error(`no such route: ${unknown.join(', ')}`)
    const chosen = (route: string) => values.route.length === 0 || values.route.includes(route)
    const rows: Row[] = []
    process.stderr.write(`  ${PLAIN_INSERT}…\n`)
    rows.push({
      route: PLAIN_INSERT,
      service: await drive(
        bareBase,
        accessToken,
        many(() => ({ method: 'POST', path: '/bare/plain', body: { partnerId, customFields: { description: 'Needs groceries' } } })),
        load,
      ),
    })
    for (const { route, requests, bare: bareRequests } of routes.filter((r) => chosen(r.route))) {
      process.stderr.write(`  ${route}…\n`)
      const bareMeasured = bareRequests ? await drive(bareBase, accessToken, bareRequests, load) : undefined
      rows.push({ route, service: await drive(base, accessToken, requests, load), ...(bareMeasured ? { bare: bareMeasured } : {}) })
    }
    // The reads again with the access log off, beside the same bare route: what the default log costs.
    const quietRoutes = routes.filter((r) => (r.route.startsWith('read') || r.route === 'list 25 needs') && chosen(r.route))
    const quiet = quietRoutes.length > 0 ? await startService(db.url, 'warn') : undefined
    try {
      for (const { route, requests, bare: bareRequests } of quietRoutes) {
        process.stderr.write(`  ${route}, LOG_LEVEL=warn…\n`)
        const bareMeasured = await drive(bareBase, accessToken, bareRequests!, load)
        rows.push({ route: `${route}, LOG_LEVEL=warn`, service: await drive(quiet!.base, accessToken, requests, load), bare: bareMeasured })
      }
    } finally {
      await quiet?.stop()
    }
    const consoleFigures =
      chromiumAvailable() && values.route.length === 0 ? await measureConsole(base, organization.adminEmail, BENCH_PASSWORD) : undefined
    return { rows, memory: { idle, afterRun: service.rss() }, ...(consoleFigures ? { console: consoleFigures } : {}) }
  } finally {
    await Promise.all([service.stop(), bare.stop()])
  }
}

const driver = driverName(load)
const sizes = values.sizes.split(',').map(Number)
for (const kind of values.db.split(',')) {
  const results = new Map<number, Row[]>()
  const consoles = new Map<number, ConsoleFigures>()
  const memory = new Map<number, Memory>()
  for (const needs of sizes) {
    console.error(`${kind}, ${needs.toLocaleString()} needs, ${driver}`)
    const measured = await measure(kind, needs)
    results.set(needs, measured.rows)
    memory.set(needs, measured.memory)
    if (measured.console) consoles.set(needs, measured.console)
  }
  printReport(`${kind}: ${driver}, ${new Date().toISOString().slice(0, 10)}`, results, consoles, memory)
}
