// Times one route in process, through the service's app.handle (no socket, no HTTP parsing): the wall and CPU
// time per request, to see what a change to a route costs before running the benchmark. See docs/performance.md.
//
//   DB=<a copy of a seeded SQLite file> bun scripts/profiling/in-process.ts [route] [requests]
//   routes: read (default), health, list, overdue, create, intake, search, search1
//   C=8       requests in flight at once (default 1)
//   WRAP=1    also the time per request spent in each method of the repositories and use cases named below
//   PARTS=1   also the pieces of a read and a list alone (authentication, repository, views); PARTS=search adds search's
//
// The database is one `npm run bench` seeded (bench-data/sqlite-*.sqlite), copied first: create and intake write.
import 'reflect-metadata'
import { needView } from '../../src/adapters/http/needs.schemas'
import { AuditTrail } from '../../src/application/audit/audit-trail'
import { parseConstituentQuery } from '../../src/domain/constituents/search'
import { loadConfig } from '../../src/main/config'
import { createContainer, PORTS, useCasesOf } from '../../src/main/container'
import { bringUpToDate, serviceApp } from '../../src/main/server'
import { BENCH_PASSWORD, BENCH_SECRETS } from '../bench/seed'

const route = process.argv[2] ?? 'read'
const n = Number(process.argv[3] ?? 50000)
if (!process.env.DB) throw new Error('DB names the SQLite file to time against (a copy of one `npm run bench` seeded)')
const config = loadConfig({
  ...process.env,
  ...BENCH_SECRETS,
  DATABASE_URL: `sqlite:${process.env.DB}`,
  LOG_LEVEL: 'warn',
  AUTH_RATE_LIMIT: '1000000',
  PUBLIC_INTAKE_RATE_LIMIT: '1000000',
})
const container = createContainer(config)
await bringUpToDate(container)
const app = serviceApp(container, config, () => 'ready')
const base = 'http://localhost'
const json = async (path: string, init?: RequestInit): Promise<any> => (await app.handle(new Request(base + path, init))).json()

const { accessToken } = await json('/api/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@bench-1.example.org', password: BENCH_PASSWORD }),
})
const auth = { authorization: `Bearer ${accessToken}` }
const needs = await json('/api/needs?limit=100&page=5', { headers: auth })
const partner = (await json('/api/partners', { headers: auth }))[0].id
const organization = (await json('/api/organizations/settings', { headers: auth })).id

let k = 0
/** A different person each time, among 50 phones, so intake finds some as duplicates. */
const person = () => ({
  firstName: ['Maria', 'James', 'Ana', 'Luis'][k % 4],
  lastName: ['Garcia', 'Smith', 'Nguyen', 'Okafor'][(k >> 2) % 4],
  phone: `+1555${String(((k++ % 50) * 7919) % 10_000_000).padStart(7, '0')}`,
})
const post = (headers: Record<string, string>, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const requests: Record<string, () => Request> = {
  read: () => new Request(`${base}/api/needs/${needs[7].id}`, { headers: auth }),
  health: () => new Request(`${base}/healthz`),
  list: () => new Request(`${base}/api/needs?limit=25`, { headers: auth }),
  overdue: () => new Request(`${base}/api/needs?limit=25&overdue=true`, { headers: auth }),
  create: () => new Request(`${base}/api/needs`, post(auth, { partnerId: partner, customFields: { description: 'Needs groceries' } })),
  intake: () =>
    new Request(
      `${base}/api/needs/public`,
      post({ 'x-forwarded-for': '10.0.0.1' }, { organizationId: organization, description: 'Help with rent', customFields: person() }),
    ),
  search: () => new Request(`${base}/api/constituents?query=garcia`, { headers: auth }),
  search1: () => new Request(`${base}/api/constituents?query=garcia&limit=1`, { headers: auth }),
}
const make = requests[route]
if (!make) throw new Error(`unknown route ${route}: one of ${Object.keys(requests).join(', ')}`)

/** Time per request spent in each method of the classes WRAP names, summed over every call. */
const timings = new Map<string, { calls: number; ns: number }>()
const WRAPPED: Array<[string, string]> = [
  ['../../src/adapters/persistence/sql/sql-constituent-repository', 'SqlConstituentRepository'],
  ['../../src/adapters/persistence/sql/sql-need-repository', 'SqlNeedRepository'],
  ['../../src/adapters/persistence/sql/sql-organization-repository', 'SqlOrganizationRepository'],
  ['../../src/adapters/persistence/sql/sql-partner-repository', 'SqlPartnerRepository'],
  ['../../src/adapters/persistence/sql/sql-household-match-repository', 'SqlHouseholdMatchRepository'],
  ['../../src/adapters/persistence/sql/sql-audit-event-repository', 'SqlAuditEventRepository'],
  ['../../src/adapters/persistence/sql/sql-webhook-endpoint-repository', 'SqlWebhookEndpointRepository'],
  ['../../src/application/constituents/duplicate-detection', 'DuplicateDetection'],
  ['../../src/application/constituents/constituent-registry', 'ConstituentRegistry'],
  ['../../src/application/needs/need-intake', 'NeedIntake'],
  ['../../src/application/needs/submit-public-need', 'SubmitPublicNeed'],
  ['../../src/application/needs/create-need', 'CreateNeed'],
  ['../../src/application/needs/requester-confirmation', 'RequesterConfirmation'],
  ['../../src/application/idempotency/idempotent-creates', 'IdempotentCreates'],
  ['../../src/application/audit/audit-trail', 'AuditTrail'],
  ['../../src/application/webhooks/webhook-events', 'WebhookEvents'],
]
async function wrapMethods() {
  for (const [path, name] of WRAPPED) {
    const proto = (await import(path))[name].prototype
    for (const key of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!
      if (key === 'constructor' || typeof descriptor.value !== 'function') continue
      const original = descriptor.value
      const label = `${name}.${key}`
      proto[key] = function (this: unknown, ...args: unknown[]) {
        const start = Bun.nanoseconds()
        const done = () => {
          const entry = timings.get(label) ?? { calls: 0, ns: 0 }
          entry.calls++
          entry.ns += Bun.nanoseconds() - start
          timings.set(label, entry)
        }
        const result = original.apply(this, args)
        if (result && typeof result.then === 'function') return result.finally(done)
        done()
        return result
      }
    }
  }
}
if (process.env.WRAP) await wrapMethods()

const first = await app.handle(make())
console.log(first.status, (await first.text()).slice(0, 120))
for (let i = 0; i < 2000; i++) await (await app.handle(make())).text()
timings.clear()
const start = Bun.nanoseconds()
const cpu = process.cpuUsage()
let sent = 0
const concurrency = Number(process.env.C ?? 1)
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (sent < n) {
      sent++
      await (await app.handle(make())).text()
    }
  }),
)
const used = process.cpuUsage(cpu)
for (const [label, { calls, ns }] of [...timings].sort((a, b) => b[1].ns - a[1].ns)) {
  console.log(label.padEnd(55), (calls / n).toFixed(2).padStart(6), 'calls/req', (ns / n / 1000).toFixed(1).padStart(8), 'µs/req')
}
const wall = (Bun.nanoseconds() - start) / n / 1000
console.log(`${route}: ${wall.toFixed(2)} µs wall, ${((used.user + used.system) / n).toFixed(2)} µs cpu per request`)

/** The pieces of a read and a list, each alone. */
async function timeParts() {
  const useCases = useCasesOf(container)
  const time = async (name: string, piece: () => unknown) => {
    for (let i = 0; i < 2000; i++) await piece()
    const from = Bun.nanoseconds()
    for (let i = 0; i < n; i++) await piece()
    console.log(name, ((Bun.nanoseconds() - from) / n / 1000).toFixed(2), 'µs')
  }
  const actor = await useCases.auth.authenticate.execute(accessToken)
  await time('authenticate', () => useCases.auth.authenticate.execute(accessToken))
  const tokens = container.get(PORTS.accessTokens)
  await time('verify token', () => tokens.verify(accessToken))
  await time('get need', () => useCases.needs.get.execute(actor, needs[7].id))
  const repositories = container.get(PORTS.persistence).repositories
  await time('needs.findById', () => repositories.needs.findById(actor.organizationId, needs[7].id))
  const claims = tokens.verify(accessToken) as any
  await time('members.findInSession', () => repositories.members.findInSession(claims.organizationId, claims.memberId, claims.sessionId))
  const need = await useCases.needs.get.execute(actor, needs[7].id)
  if (process.env.PARTS === 'search') {
    const query = parseConstituentQuery('garcia')
    const paging = { page: 1, limit: 25 }
    await time('constituents.search', () => repositories.constituents.search(actor.organizationId, query, paging))
    const found = await repositories.constituents.search(actor.organizationId, query, paging)
    const audit = container.get(AuditTrail)
    await time('audit constituentsRead', () => audit.constituentsRead(actor, found.items))
    await time('search use case', () => useCases.constituents.search.execute(actor, 'garcia', paging))
  }
  await time('needs.list', () => repositories.needs.list(actor.organizationId, {}, { page: 1, limit: 25 }))
  await time('list use case', () => useCases.needs.list.execute(actor, {}, { page: 1, limit: 25 }))
  const page = await useCases.needs.list.execute(actor, {}, { page: 1, limit: 25 })
  await time('views+JSON of page', () => JSON.stringify(page.items.map(needView)))
  await time('needView+JSON', () => JSON.stringify(needView(need)))
}
if (process.env.PARTS) await timeParts()
await container.get(PORTS.persistence).close()
process.exit(0)
