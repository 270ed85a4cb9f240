// Round trips to PostgreSQL per request, as users run the service (docs/performance/bounds.md "What bounds
// each route"): seeds a small database, starts `intake serve` on it through a TCP proxy that counts, on each
// connection, the times the service writes again after the database answered (one round trip each), and
// sends requests one at a time, after a warm-up (each connection prepares a statement once). With
// `--latency-ms`, the proxy holds each of the service's writes that long, as a database a network hop away
// would, and the time each request took is printed too.
//
//   BENCH_POSTGRES_URL=postgres://… bun scripts/bench/round-trips.ts [--requests 40] [--latency-ms 1]
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { databaseProxy } from '../../tests/support/database-proxy'
import { logIn, startServer } from './server'
import { BENCH_SECRETS, seed } from './seed'

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '40' }, 'latency-ms': { type: 'string', default: '0' } },
})
const latencyMs = Number(values['latency-ms'])
const admin = process.env.BENCH_POSTGRES_URL
if (!admin) throw new Error('BENCH_POSTGRES_URL names a cluster this script may create a database in')

const name = `round_trips_${process.pid}`
const adminSql = postgres(admin, { max: 1, onnotice: () => {} })
await adminSql.unsafe(`CREATE DATABASE ${name}`)
try {
  const direct = new URL(admin)
  direct.pathname = `/${name}`
  const [organization] = await seed(direct.toString(), { organizations: 1, needs: 200, constituents: 60, seed: 1 }, () => {})
  const proxy = await databaseProxy(direct.toString(), { latencyMs })
  const service = await startServer(
    ['src/main/cli.ts', 'serve'],
    { ...BENCH_SECRETS, DATABASE_URL: proxy.url, LOG_LEVEL: 'warn', PUBLIC_INTAKE_RATE_LIMIT: '1000000' },
    { readyPath: '/readyz', log: join(tmpdir(), `${name}.log`) },
  )
  try {
    const token = await logIn(service.base, organization!.adminEmail)
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${service.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const post = (path: string, body: unknown) => send('POST', path, body)
    const { id: needId } = (await (
      await post('/api/needs', { partnerId: organization!.defaultPartnerId, customFields: { description: 'Needs a ride' } })
    ).json()) as { id: string }
    const statuses = ['IN_PROGRESS', 'PENDING_CLIENT'] as const
    let person = 0
    let turn = 0
    const routes: Array<[string, () => Promise<Response>, number]> = [
      [
        'create a need',
        () => post('/api/needs', { partnerId: organization!.defaultPartnerId, customFields: { description: 'Needs groceries' } }),
        201,
      ],
      [
        'public intake (a new person)',
        () =>
          post('/api/needs/public', {
            organizationId: organization!.organizationId,
            description: 'Help with rent',
            customFields: { firstName: 'Ana', lastName: `Person${++person}`, phone: `+1555${String(person).padStart(7, '0')}` },
          }),
        201,
      ],
      ['add a note', () => post(`/api/needs/${needId}/notes`, { content: 'Called back, left a message' }), 201],
      ["change a need's status", () => send('PUT', `/api/needs/${needId}`, { status: statuses[turn++ % 2] }), 200],
    ]
    const requests = Number(values.requests)
    for (const [route, request, expected] of routes) {
      const counts: number[] = []
      const times: number[] = []
      for (let i = 0; i < 2 * requests; i++) {
        const before = proxy.counter.roundTrips
        const started = performance.now()
        const answer = await request()
        if (answer.status !== expected) throw new Error(`${route}: ${answer.status} ${await answer.text()}`)
        // The first half warms every connection of the pool up; the second is counted.
        if (i >= requests) {
          times.push(performance.now() - started)
          counts.push(proxy.counter.roundTrips - before)
        }
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!
      const timed = latencyMs > 0 ? `, ${median(times).toFixed(2)} ms with ${latencyMs} ms a round trip` : ''
      console.log(`${route}: ${median(counts)} round trips (median of ${requests}; ${counts[0]} to ${counts.at(-1)})${timed}`)
    }
  } finally {
    await service.stop()
    await proxy.close()
  }
} finally {
  await adminSql.unsafe(`DROP DATABASE ${name} WITH (FORCE)`)
  await adminSql.end()
}
