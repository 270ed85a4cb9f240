import { afterAll, describe, expect, test } from 'bun:test'
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { TwilioMock } from '../support/twilio-mock'
import { ApiClient, killAllServers, ServeProcess, textsOf, waitFor } from './cli-process'
import { ADMIN, baseEnv, cli, clientsFor, createOrganization, inWaves, ORG } from './postgres-processes'

// Several `intake serve` processes on one PostgreSQL database (a restart of PostgreSQL under them:
// postgres-restart.test.ts). Real child processes; the Twilio mock lives here, in the test process.

const ORG_NUMBER = '+15550002222'
const CONSTITUENT_PHONE = '+15557654322'

const drops: Array<() => Promise<void>> = []
const mocks: TwilioMock[] = []

afterAll(async () => {
  await killAllServers()
  await Promise.all(mocks.map((m) => m.stop()))
  for (const drop of drops) await drop().catch((error) => console.error(`could not drop a test database: ${error}`))
})

/** A fresh database with one organization (created through the CLI, which also migrates it). */
async function organizationDatabase(env: (url: string) => Record<string, string>, phone = false): Promise<Record<string, string>> {
  const database = await createTestDatabase()
  drops.push(() => database.drop())
  const childEnv = env(database.url)
  await createOrganization(childEnv)
  if (phone) await cli(['org', 'set-phone-number', '--org', ORG, '--phone', ORG_NUMBER], childEnv)
  return childEnv
}

// Without TEST_POSTGRES_URL the file defines nothing: postgresAvailable() prints the one skip line.
if (postgresAvailable())
  describe('several instances on one PostgreSQL', () => {
    test('three servers starting at once on an empty database: all come up (migrations under the advisory lock), exactly one creates the first organization', async () => {
      const database = await createTestDatabase()
      drops.push(() => database.drop())
      const env = baseEnv(database.url, {
        SERVE_RUNS_WORKER: 'false',
        INTAKE_ORG_NAME: 'Instances',
        INTAKE_ORG_SLUG: ORG,
        INTAKE_ADMIN_EMAIL: ADMIN.email,
        INTAKE_ADMIN_PASSWORD: ADMIN.password,
      })
      const starts = await Promise.allSettled([0, 1, 2].map(() => ServeProcess.start(env, 30_000)))
      const failures = starts.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []))
      expect(failures).toEqual([])
      const servers = starts.map((s) => (s as PromiseFulfilledResult<ServeProcess>).value)
      expect(servers.filter((s) => s.output().includes(`Created organization "${ORG}"`))).toHaveLength(1)
      for (const server of servers) {
        const api = new ApiClient(server.url)
        await api.login(ADMIN.email, ADMIN.password)
        expect(await api.expect<{ slug: string }>(200, 'GET', '/api/organizations/settings')).toMatchObject({ slug: ORG })
      }
      await Promise.all(servers.map(async (s) => expect(await s.stop('SIGTERM')).toBe(0)))
    }, 120_000)

    test('two servers: 500 needs created concurrently through both get 500 distinct reference numbers, REQ-1001 to REQ-1500', async () => {
      const env = await organizationDatabase((url) => baseEnv(url, { SERVE_RUNS_WORKER: 'false' }))
      // Both start at once (the CLI has migrated already; a start on an empty database is the test above).
      const servers = await Promise.all([ServeProcess.start(env, 30_000), ServeProcess.start(env, 30_000)])
      const clients = await clientsFor(servers)
      const [partner] = await clients[0]!.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')

      const started = Date.now()
      const answers = await inWaves(500, 50, (i) =>
        clients[i % 2]!.call<{ referenceNumber?: string }>('POST', '/api/needs', { partnerId: partner!.id }),
      )
      console.log(`500 needs through 2 servers, 50 in flight: ${Date.now() - started} ms`)

      const statuses = new Map<number, number>()
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
      expect(Object.fromEntries(statuses)).toEqual({ 201: 500 })
      const references = answers.map((a) => a.body.referenceNumber!)
      expect(new Set(references).size).toBe(500)
      const expected = Array.from({ length: 500 }, (_, i) => `REQ-${1001 + i}`)
      expect([...references].sort()).toEqual(expected.sort())

      // Each server sees all of them, by reference number too.
      for (const client of clients) {
        const found = await client.expect<{ referenceNumber: string }>(200, 'GET', '/api/needs/req-1500')
        expect(found.referenceNumber).toBe('REQ-1500')
      }
      await Promise.all(servers.map(async (s) => expect(await s.stop('SIGTERM')).toBe(0)))
    }, 120_000)

    test("two servers: partners and webhook endpoints changed through one hold at once for the other's next need", async () => {
      const env = await organizationDatabase((url) => baseEnv(url, { SERVE_RUNS_WORKER: 'false' }))
      const servers = await Promise.all([ServeProcess.start(env, 30_000), ServeProcess.start(env, 30_000)])
      const [changing, creating] = await clientsFor(servers)
      const partner = await changing!.expect<{ id: string }>(201, 'POST', '/api/partners', { name: 'Rent help', slaHours: 24 })
      const create = () => creating!.call<{ id: string }>('POST', '/api/needs', { partnerId: partner.id })
      // The creating server has read the partner and the (no) webhook endpoints, and keeps them.
      for (let i = 0; i < 3; i++) expect((await create()).status).toBe(201)

      const endpoint = await changing!.expect<{ id: string }>(201, 'POST', '/api/webhook-endpoints', {
        url: 'https://hooks.example.org/intake',
        events: ['need.created'],
      })
      const created = await create()
      expect(created.status).toBe(201)
      const deliveries = await changing!.expect<Array<{ status: string }>>(200, 'GET', `/api/webhook-endpoints/${endpoint.id}/deliveries`)
      expect(deliveries).toHaveLength(1)

      await changing!.expect(200, 'PUT', `/api/partners/${partner.id}`, { isArchived: true })
      const refused = await create()
      expect(refused.status).toBe(400)
      expect(JSON.stringify(refused.body)).toContain('/partnerId')
      await Promise.all(servers.map(async (s) => expect(await s.stop('SIGTERM')).toBe(0)))
    }, 120_000)

    test('two dispatchers: 200 queued texts reach the provider exactly once, never more than maxConcurrency at a time', async () => {
      const mock = new TwilioMock({ delayMs: 25 }).start()
      mocks.push(mock)
      const maxConcurrency = 4
      const env = await organizationDatabase(
        (url) =>
          baseEnv(url, {
            SMS_PROVIDER: 'twilio',
            TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
            TWILIO_AUTH_TOKEN: 'test-auth-token',
            TWILIO_API_BASE_URL: mock.url,
            OUTBOX_POLL_MS: '20',
            OUTBOX_LEASE_MS: '20000',
          }),
        true,
      )
      const servers = await Promise.all([ServeProcess.start(env, 30_000), ServeProcess.start(env, 30_000)])
      const clients = await clientsFor(servers)
      await clients[0]!.expect(200, 'PUT', '/api/organizations/settings', { name: 'Instances', slug: ORG, maxConcurrency })
      const [partner] = await clients[0]!.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')
      const constituent = await clients[1]!.expect<{ id: string }>(201, 'POST', '/api/constituents', {
        firstName: 'Casey',
        phone: CONSTITUENT_PHONE,
      })
      const need = await clients[0]!.expect<{ id: string }>(201, 'POST', '/api/needs', {
        partnerId: partner!.id,
        constituentId: constituent.id,
      })

      // Queued through both servers while both workers already send.
      const bodies = Array.from({ length: 200 }, (_, i) => `instance text ${String(i).padStart(3, '0')}`)
      await inWaves(200, 20, (i) => clients[i % 2]!.expect(202, 'POST', `/api/needs/${need.id}/sms`, { body: bodies[i] }))

      const counts = () => {
        const seen = new Map<string, number>()
        for (const m of mock.messages) seen.set(m.body, (seen.get(m.body) ?? 0) + 1)
        return seen
      }
      const allArrived = await waitFor(() => counts().size === 200, 60_000, 50)
      const settled = await waitFor(
        async () => (await textsOf(clients[1]!, need.id)).every((t) => t.deliveryStatus === 'sent'),
        20_000,
        100,
      )
      // Anything sent twice would show up within a few poll intervals more.
      await Bun.sleep(300)
      console.log(`two dispatchers: ${mock.messages.length} POSTs for 200 texts, at most ${mock.maxInFlight} in flight at the mock`)
      expect(allArrived).toBe(true)
      expect(settled).toBe(true)

      const seen = counts()
      expect(bodies.filter((b) => seen.get(b) !== 1)).toEqual([])
      expect(mock.messages).toHaveLength(200)
      expect(mock.requests.filter((r) => r.method === 'GET')).toHaveLength(0)
      expect(mock.maxInFlight).toBeLessThanOrEqual(maxConcurrency)

      const sidOf = new Map(mock.messages.map((m) => [m.body, m.sid]))
      const texts = await textsOf(clients[0]!, need.id)
      expect(texts).toHaveLength(200)
      expect(texts.filter((t) => t.deliveryStatus !== 'sent' || t.providerMessageId !== sidOf.get(t.content))).toEqual([])
      await Promise.all(servers.map(async (s) => expect(await s.stop('SIGTERM')).toBe(0)))
    }, 120_000)
  })
