// npm run bench:stream: the live stream's targets (docs/events.md "The live stream"), measured on the real service
// (`intake serve` on a fresh database): the memory 500 idle streams cost, and how long after its commit an event
// reaches each of 500 open streams (p50, p99, max over every event and stream).
//
//   npm run bench:stream -- [--db sqlite|postgres] [--streams 500] [--events 50]
//
// Bun's fetch keeps at most 256 requests in flight, read from BUN_CONFIG_MAX_HTTP_REQUESTS as the process
// starts: package.json's script sets it to 1024 for the 500 streams.
//
// PostgreSQL needs BENCH_POSTGRES_URL (a cluster it may create a database in).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { startServer } from './server'
import { BENCH_SECRETS } from './seed'

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    streams: { type: 'string', default: '500' },
    events: { type: 'string', default: '50' },
  },
})
const STREAMS = Number(values.streams)
const EVENTS = Number(values.events)
const ADMIN = { email: 'admin@stream-bench.example.org', password: 'stream bench password 1' }
const SETTLE_MS = 3000

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (values.db === 'postgres') {
    const admin = process.env.BENCH_POSTGRES_URL
    if (!admin) throw new Error('--db postgres needs BENCH_POSTGRES_URL')
    const name = `bench_stream_${Date.now()}`
    const sql = postgres(admin, { max: 1, onnotice: () => {} })
    await sql.unsafe(`CREATE DATABASE ${name}`)
    const url = new URL(admin)
    url.pathname = `/${name}`
    const drop = async () => {
      await sql.unsafe(`DROP DATABASE ${name} WITH (FORCE)`)
      await sql.end()
    }
    return { url: url.toString(), drop }
  }
  const dir = mkdtempSync(join(tmpdir(), 'stream-bench-'))
  return { url: `sqlite:${join(dir, 'intake.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }
}

/** A stream read as the console reads it; `arrived` notes when each need's event came. */
async function openStream(base: string, token: string, arrived: Map<string, number[]>) {
  const response = await fetch(`${base}/api/stream`, { headers: { authorization: `Bearer ${token}` } })
  if (response.status !== 200) throw new Error(`stream answered ${response.status}`)
  const decoder = new TextDecoder()
  let buffer = ''
  void (async () => {
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk, { stream: true })
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const needId = /"needId":"([^"]+)"/.exec(buffer.slice(0, end))?.[1]
        // An event may come before its request's answer is read: every need's times are kept.
        if (needId) arrived.set(needId, [...(arrived.get(needId) ?? []), performance.now()])
        buffer = buffer.slice(end + 2)
      }
    }
  })().catch(() => undefined)
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN

const database = await freshDatabase()
const service = await startServer(
  ['src/main/cli.ts', 'serve'],
  {
    ...BENCH_SECRETS,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT: '1000000',
    INTAKE_ADMIN_EMAIL: ADMIN.email,
    INTAKE_ADMIN_PASSWORD: ADMIN.password,
  },
  { readyPath: '/readyz' },
)
try {
  const login = await fetch(`${service.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }
  const partners = (await (await fetch(`${service.base}/api/partners`, { headers: auth })).json()) as Array<{ id: string }>
  // One stream first, so what starts with the first stream (the feed) is not counted as the streams' cost.
  const arrived = new Map<string, number[]>()
  await openStream(service.base, accessToken, arrived)
  await Bun.sleep(SETTLE_MS)
  const before = service.rss()
  for (let i = 1; i < STREAMS; i++) await openStream(service.base, accessToken, arrived)
  await Bun.sleep(SETTLE_MS)
  const after = service.rss()

  const latencies: number[] = []
  for (let i = 0; i < EVENTS; i++) {
    const sent = performance.now()
    const created = await fetch(`${service.base}/api/needs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ partnerId: partners[0]!.id }),
    })
    // The commit happened before the answer: timing from the request's start counts the commit's time too.
    const { id } = (await created.json()) as { id: string }
    const times = () => arrived.get(id) ?? []
    for (const giveUp = performance.now() + 10_000; times().length < STREAMS && performance.now() < giveUp; ) await Bun.sleep(5)
    if (times().length < STREAMS) console.error(`need ${i}: ${times().length} of ${STREAMS} streams within 10 s`)
    latencies.push(...times().map((at) => at - sent))
  }
  latencies.sort((a, b) => a - b)
  console.log(`database ${values.db}, ${STREAMS} streams, ${EVENTS} events`)
  console.log(`memory: ${before.toFixed(1)} MB with one stream, ${after.toFixed(1)} MB with ${STREAMS}: +${(after - before).toFixed(1)} MB`)
  console.log(
    `request start to event at each stream: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`,
  )
} finally {
  await service.stop()
  await database.drop()
}
process.exit(0)
