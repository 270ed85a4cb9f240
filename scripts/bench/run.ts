// npm run bench: seeds realistic data, starts the real service as a user would (`intake serve`) beside a bare
// Elysia route (bare.ts), drives both on loopback with wrk (autocannon when wrk is not installed), and prints
// req/s, p50 and p99 per route with the ratio to the bare route measured in the same run. See
// docs/performance.md.
//
//   npm run bench -- [--db sqlite|postgres] [--sizes 10000,1000000] [--duration 10] [--connections 32] [--seed 1]
//   BENCH_DRIVER=autocannon npm run bench   (autocannon even where wrk is installed)
//
// PostgreSQL needs BENCH_POSTGRES_URL (a cluster it may create databases in). Seeded data is kept in
// ./bench-data (SQLite) or in databases named bench_<needs>_<seed> (PostgreSQL) and reused by later runs.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import postgres from 'postgres'
import { chromiumAvailable } from '../../tests/support/browser'
import { measureConsole, type ConsoleFigures } from './console'
import { BENCH_PASSWORD, BENCH_SECRETS, random, seed, type SeededOrganization } from './seed'

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    sizes: { type: 'string', default: '10000,1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    seed: { type: 'string', default: '1' },
  },
})
const ROOT = join(import.meta.dir, '..', '..')
const DATA = join(ROOT, 'bench-data')
const seedNumber = Number(values.seed)
const duration = Number(values.duration)
const connections = Number(values.connections)

/** In the names of kept seeded data: a change to what seed.ts writes bumps it, so old data is not reused. */
const SEED_SHAPE = 'v2'

/** BENCH_DRIVER=autocannon uses autocannon even where wrk is installed. */
const WRK = process.env.BENCH_DRIVER === 'autocannon' ? null : Bun.which('wrk')

interface Measured {
  requests: number
  p50: number
  p99: number
  errors: number
}

interface BenchRequest {
  method: string
  path: string
  body?: unknown
}

/** Drives `url` with the requests in turn, the same token on each: wrk when installed, else autocannon. */
function drive(url: string, token: string, requests: BenchRequest[]): Promise<Measured> {
  return WRK ? driveWithWrk(url, token, requests) : driveWithAutocannon(url, token, requests)
}

async function driveWithWrk(url: string, token: string, requests: BenchRequest[]): Promise<Measured> {
  const script = join(tmpdir(), `bench-${crypto.randomUUID()}.lua`)
  writeFileSync(script, luaRequests(token, requests))
  const wrk = Bun.spawn([WRK!, '-t1', `-c${connections}`, `-d${duration}s`, '--latency', '-s', script, url], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const out = await new Response(wrk.stdout).text()
  await wrk.exited
  rmSync(script)
  const ms = (label: string) => {
    const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out)
    if (!match) return NaN
    return Number(match[1]) * ({ us: 0.001, ms: 1, s: 1000 } as const)[match[2] as 'us' | 'ms' | 's']
  }
  return {
    requests: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: ms('50%'),
    p99: ms('99%'),
    errors: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0),
  }
}

/** A Lua `request` that cycles through the requests (method, path, body), the same token on each. */
function luaRequests(token: string, requests: BenchRequest[]): string {
  const quote = (s: string) => JSON.stringify(s)
  const items = requests.map(
    (r) => `{${quote(r.method)}, ${quote(r.path)}, ${r.body === undefined ? 'nil' : quote(JSON.stringify(r.body))}}`,
  )
  return `local items = {${items.join(',\n')}}
local i = 0
local headers = { ["content-type"] = "application/json", ["authorization"] = ${quote(`Bearer ${token}`)} }
request = function()
  i = (i % #items) + 1
  local item = items[i]
  return wrk.format(item[1], item[2], headers, item[3])
end
`
}

async function driveWithAutocannon(url: string, token: string, requests: BenchRequest[]): Promise<Measured> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: requests.map((r) => ({
      method: r.method as 'GET',
      path: r.path,
      headers,
      ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }),
    })),
  })
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  }
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** Starts a server; its log (stderr) goes to `log`, a file, as `npm start 2> file` or a log collector would take it. */
async function startProcess(
  args: string[],
  env: Record<string, string>,
  port: number,
  log: string,
): Promise<{ stop(): Promise<void>; rss(): number }> {
  const child = Bun.spawn([process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdout: 'ignore',
    stderr: Bun.file(log),
  })
  for (let tries = 0; ; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status < 500,
      () => false,
    )
    const bareUp = await fetch(`http://127.0.0.1:${port}/bare/needs/x`).then(
      () => true,
      () => false,
    )
    if (up || bareUp) break
    if (child.exitCode !== null || tries > 600) throw new Error(`${args.join(' ')} did not start`)
    await Bun.sleep(100)
  }
  return {
    async stop() {
      child.kill('SIGTERM')
      await child.exited
    },
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(require('node:fs').readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  }
}

/** The database for `needs` needs, seeded once and reused: a working copy of the SQLite file, or a PostgreSQL database. */
async function database(needs: number): Promise<{ url: string; bare: string }> {
  const plan = { organizations: 3, needs, constituents: Math.round(needs * 0.3), seed: seedNumber }
  const progress = (done: number, total: number) =>
    process.stderr.write(`\r  seeding ${needs.toLocaleString()} needs: ${Math.floor((done / total) * 100)}%`)
  if (values.db === 'postgres') {
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
      // What autovacuum does soon after a bulk load: without statistics the planner skips the search index.
      const seeded = postgres(url.toString(), { max: 1, onnotice: () => {} })
      await seeded`ANALYZE`
      await seeded.end()
    }
    await sql.end()
    return { url: url.toString(), bare: url.toString() }
  }
  mkdirSync(DATA, { recursive: true })
  const seeded = join(DATA, `sqlite-${SEED_SHAPE}-${needs}-${seedNumber}.sqlite`)
  if (!existsSync(seeded)) {
    await seed(`sqlite:${seeded}.partial`, plan, progress)
    process.stderr.write('\n')
    copyFileSync(`${seeded}.partial`, seeded)
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${seeded}.partial${suffix}`, { force: true })
  }
  const working = join(DATA, `working-${needs}.sqlite`)
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${working}${suffix}`, { force: true })
  copyFileSync(seeded, working)
  return { url: `sqlite:${working}`, bare: working }
}

interface Row {
  route: string
  service: Measured
  bare?: Measured
}

/** The service as a user starts it, at its default LOG_LEVEL (the access log on) unless `logLevel` says otherwise. */
function startService(url: string, logLevel?: string) {
  const env: Record<string, string> = {
    ...BENCH_SECRETS,
    DATABASE_URL: url,
    AUTH_RATE_LIMIT: '1000000',
    PUBLIC_INTAKE_RATE_LIMIT: '1000000',
  }
  const port = freePort()
  const started = startProcess(
    ['src/main/cli.ts', 'serve'],
    logLevel ? { ...env, LOG_LEVEL: logLevel } : env,
    port,
    join(DATA, `service-${logLevel ?? 'default'}.log`),
  )
  return started.then((process) => ({ ...process, base: `http://127.0.0.1:${port}` }))
}

async function measure(needs: number): Promise<{ rows: Row[]; console?: ConsoleFigures }> {
  const db = await database(needs)
  const service = await startService(db.url)
  const barePort = freePort()
  const bare = await startProcess(
    ['scripts/bench/bare.ts'],
    { JWT_SECRET: BENCH_SECRETS.JWT_SECRET, BARE_DATABASE: db.bare },
    barePort,
    join(DATA, 'bare.log'),
  )
  const base = service.base
  const bareBase = `http://127.0.0.1:${barePort}`
  try {
    const organization: Pick<SeededOrganization, 'slug' | 'adminEmail'> = { slug: 'bench-1', adminEmail: 'admin@bench-1.example.org' }
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: organization.adminEmail, password: BENCH_PASSWORD }),
    })
    const { accessToken } = (await login.json()) as { accessToken: string }
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
    const rows: Row[] = []
    for (const { route, requests, bare: bareRequests } of routes) {
      process.stderr.write(`  ${route}…\n`)
      const bareMeasured = bareRequests ? await drive(bareBase, accessToken, bareRequests) : undefined
      rows.push({ route, service: await drive(base, accessToken, requests), ...(bareMeasured ? { bare: bareMeasured } : {}) })
    }
    // The reads again with the access log off, beside the same bare route: what the default log costs.
    const quiet = await startService(db.url, 'warn')
    try {
      for (const { route, requests, bare: bareRequests } of routes.filter(
        (r) => r.route.startsWith('read') || r.route === 'list 25 needs',
      )) {
        process.stderr.write(`  ${route}, LOG_LEVEL=warn…\n`)
        const bareMeasured = await drive(bareBase, accessToken, bareRequests!)
        rows.push({ route: `${route}, LOG_LEVEL=warn`, service: await drive(quiet.base, accessToken, requests), bare: bareMeasured })
      }
    } finally {
      await quiet.stop()
    }
    const consoleFigures = chromiumAvailable() ? await measureConsole(base, organization.adminEmail, BENCH_PASSWORD) : undefined
    process.stderr.write(`  service RSS after the run: ${service.rss().toFixed(0)} MB\n`)
    return { rows, ...(consoleFigures ? { console: consoleFigures } : {}) }
  } finally {
    await Promise.all([service.stop(), bare.stop()])
  }
}

const driver = WRK ? `wrk -t1 -c${connections} -d${duration}s` : `autocannon -c${connections} -d${duration}`
const sizes = values.sizes.split(',').map(Number)
const results = new Map<number, Row[]>()
const consoles = new Map<number, ConsoleFigures>()
for (const needs of sizes) {
  console.error(`${values.db}, ${needs.toLocaleString()} needs, ${driver}`)
  const measured = await measure(needs)
  results.set(needs, measured.rows)
  if (measured.console) consoles.set(needs, measured.console)
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–'
console.log(`\n## ${values.db}: ${driver}, ${new Date().toISOString().slice(0, 10)}\n`)
for (const [needs, rows] of results) {
  console.log(`### ${needs.toLocaleString()} needs\n`)
  console.log('| route | req/s | p50 ms | p99 ms | errors | bare req/s | ratio |')
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  const bareRead = rows.find((r) => r.route === 'read one need')?.bare
  const bareWrite = rows.find((r) => r.route === 'create a need')?.bare
  for (const row of rows) {
    const anchor =
      row.bare ?? (row.route.startsWith('list') || row.route.includes('search') ? bareRead : row.route === 'login' ? undefined : bareWrite)
    console.log(
      `| ${row.route} | ${fmt(row.service.requests)} | ${fmt(row.service.p50, 2)} | ${fmt(row.service.p99, 2)} | ${row.service.errors} | ${anchor ? fmt(anchor.requests) : ''} | ${anchor ? fmt(row.service.requests / anchor.requests, 2) : ''} |`,
    )
  }
  console.log()
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
if (consoles.size === 0) console.log('(The staff console is not measured: no Chromium; set CHROMIUM_PATH.)\n')
else {
  console.log('### The staff console (first load ≤ 150 KB gzipped; inbox painted ≤ 300 ms after login)\n')
  console.log(
    '| needs | first load, gzipped KB | painted after the login answer: median ms | max ms | after pressing "Log in": median ms | max ms |',
  )
  console.log('|---:|---:|---:|---:|---:|---:|')
  for (const [needs, c] of consoles) {
    console.log(
      `| ${needs.toLocaleString()} | ${fmt(c.firstLoadGzipBytes / 1024, 1)} | ${fmt(median(c.fromLoginMs))} | ${fmt(Math.max(...c.fromLoginMs))} | ${fmt(median(c.fromSubmitMs))} | ${fmt(Math.max(...c.fromSubmitMs))} |`,
    )
  }
  console.log()
}
if (sizes.length > 1) {
  const [small, large] = [results.get(sizes[0]!)!, results.get(sizes.at(-1)!)!]
  console.log(`### p50 growth from ${sizes[0]!.toLocaleString()} to ${sizes.at(-1)!.toLocaleString()} needs (target ≤ 1.5×)\n`)
  console.log('| route | p50 growth |\n|---|---:|')
  for (const row of large) {
    const before = small.find((r) => r.route === row.route)!
    console.log(`| ${row.route} | ${fmt(row.service.p50 / before.service.p50, 2)}× |`)
  }
}
