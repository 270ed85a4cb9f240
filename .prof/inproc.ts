// in-process timing of one route through app.handle (no network)
import 'reflect-metadata'
import { createHttpApp } from '../src/adapters/http/app'
import { loadConfig } from '../src/main/config'
import { createContainer, PORTS, useCasesOf } from '../src/main/container'
import { bringUpToDate } from '../src/main/server'
const route = process.argv[2] ?? 'read'
const n = Number(process.argv[3] ?? 50000)
const config = loadConfig({ ...process.env, JWT_SECRET: 'bench-jwt-secret-'.padEnd(48, 'x'), DATA_ENCRYPTION_KEY: '0'.repeat(64), DATABASE_URL: 'sqlite:' + (process.env.DB ?? '/tmp/prof/db.sqlite'), LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000000', PUBLIC_INTAKE_RATE_LIMIT: '1000000' })
const container = createContainer(config)
await bringUpToDate(container)
const app = createHttpApp({ useCases: useCasesOf(container), logger: container.get(PORTS.logger), persistence: container.get(PORTS.persistence), isReady: () => true,
  rateLimiters: { publicIntake: container.get(PORTS.publicIntakeRateLimiter), auth: container.get(PORTS.authRateLimiter) }, trustProxy: config.trustProxy, publicBaseUrl: config.publicBaseUrl, version: 'x', metrics: container.get(PORTS.metrics) })
const base = 'http://localhost'
const login = await app.handle(new Request(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@bench-1.example.org', password: 'bench-password-1234' }) }))
const { accessToken } = (await login.json()) as any
const auth = { authorization: `Bearer ${accessToken}` }
const needs = (await (await app.handle(new Request(`${base}/api/needs?limit=100&page=5`, { headers: auth }))).json()) as any[]
const partner = ((await (await app.handle(new Request(`${base}/api/partners`, { headers: auth }))).json()) as any[])[0].id
const settings = (await (await app.handle(new Request(`${base}/api/organizations/settings`, { headers: auth }))).json()) as any
let k = 0
const person = () => ({ firstName: ['Maria', 'James', 'Ana', 'Luis'][k % 4], lastName: ['Garcia', 'Smith', 'Nguyen', 'Okafor'][(k >> 2) % 4], phone: `+1555${String(((k++ % 50) * 7919) % 10_000_000).padStart(7, "0")}` })
const make = (): Request => {
  switch (route) {
    case 'read': return new Request(`${base}/api/needs/${needs[7].id}`, { headers: auth })
    case 'health': return new Request(`${base}/healthz`)
    case 'list': return new Request(`${base}/api/needs?limit=25`, { headers: auth })
    case 'create': return new Request(`${base}/api/needs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ partnerId: partner, customFields: { description: 'Needs groceries' } }) })
    case 'intake': return new Request(`${base}/api/needs/public`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.1' }, body: JSON.stringify({ organizationId: settings.id, description: 'Help with rent', customFields: person() }) })
    case 'search': return new Request(`${base}/api/constituents?query=garcia`, { headers: auth })
    case 'search1': return new Request(`${base}/api/constituents?query=garcia&limit=1`, { headers: auth })
    default: throw new Error(route)
  }
}
const timings = new Map<string, { n: number; t: number }>()
if (process.env.WRAP) {
  const mods: Array<[string, string]> = [
    ['../src/adapters/persistence/sql/sql-constituent-repository', 'SqlConstituentRepository'],
    ['../src/adapters/persistence/sql/sql-need-repository', 'SqlNeedRepository'],
    ['../src/adapters/persistence/sql/sql-organization-repository', 'SqlOrganizationRepository'],
    ['../src/adapters/persistence/sql/sql-partner-repository', 'SqlPartnerRepository'],
    ['../src/adapters/persistence/sql/sql-household-match-repository', 'SqlHouseholdMatchRepository'],
    ['../src/adapters/persistence/sql/sql-audit-event-repository', 'SqlAuditEventRepository'],
    ['../src/adapters/persistence/sql/sql-webhook-endpoint-repository', 'SqlWebhookEndpointRepository'],
    ['../src/application/constituents/duplicate-detection', 'DuplicateDetection'],
    ['../src/application/constituents/constituent-registry', 'ConstituentRegistry'],
    ['../src/application/needs/need-intake', 'NeedIntake'],
    ['../src/application/needs/submit-public-need', 'SubmitPublicNeed'],
  ]
  for (const [path, name] of mods) {
    const proto = (await import(path))[name].prototype
    for (const key of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key)!; if (key === 'constructor' || typeof d.value !== 'function') continue
      const orig = proto[key]
      proto[key] = function (...args: unknown[]) {
        const t = Bun.nanoseconds(); const label = `${name}.${key}`
        const done = () => { const e = timings.get(label) ?? { n: 0, t: 0 }; e.n++; e.t += Bun.nanoseconds() - t; timings.set(label, e) }
        const r = orig.apply(this, args)
        if (r && typeof r.then === 'function') return r.finally(done)
        done(); return r
      }
    }
  }
}
const first = await app.handle(make()); console.log(first.status, (await first.text()).slice(0, 120))
const concurrency = Number(process.env.C ?? 1)
for (let i = 0; i < 2000; i++) await (await app.handle(make())).text()
const t0 = Bun.nanoseconds(); const c0 = process.cpuUsage()
let done = 0
await Promise.all(Array.from({ length: concurrency }, async () => { while (done < n) { done++; const r = await app.handle(make()); await r.text() } }))
const c1 = process.cpuUsage(c0)
for (const [k, v] of [...timings].sort((a, b) => b[1].t - a[1].t)) console.log(k.padEnd(55), (v.n / n).toFixed(2).padStart(6), 'calls/req', (v.t / n / 1000).toFixed(1).padStart(8), 'µs/req')
console.log(`${route}: ${((Bun.nanoseconds() - t0) / n / 1000).toFixed(2)} µs wall, ${((c1.user + c1.system) / n).toFixed(2)} µs cpu per request`)
if (process.env.PARTS) {
  const uc = useCasesOf(container)
  const time = async (name: string, f: () => Promise<unknown>) => { for (let i = 0; i < 2000; i++) await f(); const t = Bun.nanoseconds(); for (let i = 0; i < n; i++) await f(); console.log(name, ((Bun.nanoseconds() - t) / n / 1000).toFixed(2), 'µs') }
  const actor = await uc.auth.authenticate.execute(accessToken)
  await time('authenticate', () => uc.auth.authenticate.execute(accessToken))
  const tokens = container.get(PORTS.accessTokens)
  await time('verify token', async () => tokens.verify(accessToken))
  await time('get need', () => uc.needs.get.execute(actor, needs[7].id))
  const repos = container.get(PORTS.persistence).repositories
  await time('needs.findById', () => repos.needs.findById(actor.organizationId, needs[7].id))
  const c = tokens.verify(accessToken) as any
  await time('members.findInSession', () => repos.members.findInSession(c.organizationId, c.memberId, c.sessionId))
  const need = await uc.needs.get.execute(actor, needs[7].id)
  const { needView } = await import('../src/adapters/http/needs.schemas')
  if (process.env.PARTS === 'search') {
    const { parseConstituentQuery } = await import('../src/domain/constituents/search')
    const q = parseConstituentQuery('garcia')
    const n0 = n
    await time('constituents.search', () => repos.constituents.search(actor.organizationId, q, { page: 1, limit: 25 }))
    const page = await repos.constituents.search(actor.organizationId, q, { page: 1, limit: 25 })
    const audit = container.get((await import('../src/application/audit/audit-trail')).AuditTrail)
    await time('audit constituentsRead', () => audit.constituentsRead(actor, page.items))
    await time('search use case', () => uc.constituents.search.execute(actor, 'garcia', { page: 1, limit: 25 }))
  }
  await time('needs.list', () => repos.needs.list(actor.organizationId, {}, { page: 1, limit: 25 }))
  await time('list use case', () => uc.needs.list.execute(actor, {}, { page: 1, limit: 25 }))
  const pageOf = await uc.needs.list.execute(actor, {}, { page: 1, limit: 25 })
  await time('views+JSON of page', async () => JSON.stringify(pageOf.items.map(needView)))
  await time('needView+JSON', async () => JSON.stringify(needView(need)))
}
await container.get(PORTS.persistence).close()
process.exit(0)
