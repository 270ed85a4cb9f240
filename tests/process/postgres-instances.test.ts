import { afterAll, describe, expect, test } from 'bun:test'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { TwilioMock } from '../support/twilio-mock'
import { ApiClient, killAllServers, runCli, ServeProcess, textsOf, waitFor } from './cli-process'

// Issue 6: several `intake serve` processes on one PostgreSQL database, and one that outlives a restart of
// PostgreSQL. Real child processes; the Twilio mock lives here, in the test process.

const ADMIN = { email: 'admin@instances.example.org', password: 'a long enough password 42' }
const ORG = 'instances'
const ORG_NUMBER = '+15550002222'
const CONSTITUENT_PHONE = '+15557654322'
/** The same secrets in every process, so a token issued by one is accepted by the other. */
const SECRETS = {
  JWT_SECRET: 'process-test-jwt-secret-that-is-long-enough-0123456789',
  DATA_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
}
const CLUSTER_SCRIPT = join(import.meta.dir, '..', '..', 'scripts', 'pg-test-cluster.sh')

const drops: Array<() => Promise<void>> = []
const mocks: TwilioMock[] = []
/** Second clusters still to remove: their data directory and port. */
const clusters = new Map<string, string>()

afterAll(async () => {
  await killAllServers()
  await Promise.all(mocks.map((m) => m.stop()))
  for (const drop of drops) await drop().catch((error) => console.error(`could not drop a test database: ${error}`))
  for (const [dir, port] of clusters) cluster('stop', dir, port)
})

/** Runs scripts/pg-test-cluster.sh on its own data directory and port; answers its stdout or throws. */
function cluster(command: 'start' | 'stop' | 'pause' | 'resume', dir: string, port: string): string {
  const result = Bun.spawnSync(['bash', CLUSTER_SCRIPT, command], {
    env: { ...process.env, PG_TEST_DIR: dir, PG_TEST_PORT: port },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if (command === 'stop') clusters.delete(dir)
  if (result.exitCode !== 0) throw new Error(`pg-test-cluster.sh ${command} failed (${result.exitCode}): ${result.stderr.toString()}`)
  return result.stdout.toString().trim()
}

/** A TCP port nobody listens on right now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** The environment of every child on `databaseUrl`: PostgreSQL, shared secrets, quiet logs. */
function baseEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  // Hundreds of texts from one admin to one number: the limits on texts have their own tests.
  return { DATABASE_URL: databaseUrl, ...SECRETS, LOG_LEVEL: 'warn', SMS_PER_RECIPIENT_PER_HOUR: '100000', SMS_PER_MEMBER_PER_HOUR: '100000', ...extra }
}

async function cli(args: string[], env: Record<string, string>): Promise<void> {
  const result = await runCli(args, env, 30_000)
  if (result.code !== 0) throw new Error(`intake ${args.join(' ')} failed (${result.code}):\n${result.output}`)
}

/** A fresh database with one organization (created through the CLI, which also migrates it). */
async function organizationDatabase(env: (url: string) => Record<string, string>, phone = false): Promise<Record<string, string>> {
  const database = await createTestDatabase()
  drops.push(() => database.drop())
  const childEnv = env(database.url)
  await cli(['org', 'create', '--name', 'Instances', '--slug', ORG, '--admin-email', ADMIN.email, '--admin-password', ADMIN.password], childEnv)
  if (phone) await cli(['org', 'set-phone-number', '--org', ORG, '--phone', ORG_NUMBER], childEnv)
  return childEnv
}

/** Clients for each server sharing one access token (issued by the first). */
async function clientsFor(servers: ServeProcess[]): Promise<ApiClient[]> {
  const clients = servers.map((s) => new ApiClient(s.url))
  await clients[0]!.login(ADMIN.email, ADMIN.password)
  for (const client of clients.slice(1)) client.token = clients[0]!.token
  return clients
}

/** Runs `count` jobs, `inFlight` at a time, in order of their index. */
async function inWaves<T>(count: number, inFlight: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++
        results[i] = await job(i)
      }
    }),
  )
  return results
}

// Without TEST_POSTGRES_URL the file defines nothing: postgresAvailable() prints the one skip line.
if (postgresAvailable()) describe('several instances on one PostgreSQL (issue 6)', () => {
  test(
    'three servers starting at once on an empty database: all come up (migrations under the advisory lock), exactly one creates the first organization',
    async () => {
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
    },
    120_000,
  )

  test(
    'two servers: 500 needs created concurrently through both get 500 distinct reference numbers, REQ-1001 to REQ-1500',
    async () => {
      const env = await organizationDatabase((url) => baseEnv(url, { SERVE_RUNS_WORKER: 'false' }))
      // Both start at once (the CLI has migrated already; a start on an empty database is the test above).
      const servers = await Promise.all([ServeProcess.start(env, 30_000), ServeProcess.start(env, 30_000)])
      const clients = await clientsFor(servers)
      const [partner] = await clients[0]!.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')

      const started = Date.now()
      const answers = await inWaves(500, 50, (i) => clients[i % 2]!.call<{ referenceNumber?: string }>('POST', '/api/needs', { partnerId: partner!.id }))
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
    },
    120_000,
  )

  test(
    'two dispatchers: 200 queued texts reach the provider exactly once, never more than maxConcurrency at a time',
    async () => {
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
      const constituent = await clients[1]!.expect<{ id: string }>(201, 'POST', '/api/constituents', { firstName: 'Casey', phone: CONSTITUENT_PHONE })
      const need = await clients[0]!.expect<{ id: string }>(201, 'POST', '/api/needs', { partnerId: partner!.id, constituentId: constituent.id })

      // Queued through both servers while both workers already send.
      const bodies = Array.from({ length: 200 }, (_, i) => `instance text ${String(i).padStart(3, '0')}`)
      await inWaves(200, 20, (i) => clients[i % 2]!.expect(202, 'POST', `/api/needs/${need.id}/sms`, { body: bodies[i] }))

      const counts = () => {
        const seen = new Map<string, number>()
        for (const m of mock.messages) seen.set(m.body, (seen.get(m.body) ?? 0) + 1)
        return seen
      }
      const allArrived = await waitFor(() => counts().size === 200, 60_000, 50)
      const settled = await waitFor(async () => (await textsOf(clients[1]!, need.id)).every((t) => t.deliveryStatus === 'sent'), 20_000, 100)
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
    },
    120_000,
  )

  test(
    'a PostgreSQL restart: 503 problem+json while it is away, 200 again after, the same process throughout',
    async () => {
      // A cluster of its own: stopping the shared one would break the other tests.
      const port = String(await freePort())
      const dir = `/tmp/intake-pg-restart-${crypto.randomUUID().slice(0, 8)}`
      clusters.set(dir, port)
      // How long each step took, said in one line at the end (the test is bounded by its timeout, not these).
      const phases: string[] = []
      let phaseStart = Date.now()
      const phase = (name: string) => {
        phases.push(`${name} ${Date.now() - phaseStart} ms`)
        phaseStart = Date.now()
      }
      try {
        const url = cluster('start', dir, port)
        phase('cluster start')
        const env = baseEnv(url, { OUTBOX_POLL_MS: '50' })
        await cli(['org', 'create', '--name', 'Instances', '--slug', ORG, '--admin-email', ADMIN.email, '--admin-password', ADMIN.password], env)
        const server = await ServeProcess.start(env, 30_000)
        const [api] = await clientsFor([server])
        const [partner] = await api!.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')
        await api!.expect(201, 'POST', '/api/needs', { partnerId: partner!.id })
        await api!.expect(200, 'GET', '/api/needs')
        await api!.expect(200, 'GET', '/readyz')
        phase('serve start')

        cluster('pause', dir, port)
        phase('pause')
        const pausedAt = Date.now()
        let answer = await api!.call('GET', '/api/needs')
        const unavailable = await waitFor(
          async () => {
            answer = await api!.call('GET', '/api/needs')
            return answer.status === 503
          },
          15_000,
          100,
        )
        console.log(`database away: GET /api/needs answered ${answer.status} after ${Date.now() - pausedAt} ms`)
        expect({ unavailable, status: answer.status }).toEqual({ unavailable: true, status: 503 })
        expect(answer.body).toMatchObject({ type: 'tag:intake.example,2026:problems/unavailable', title: 'Service unavailable', status: 503 })
        // The content type, and a write and the readiness check, while it is still away.
        const raw = await fetch(`${server.url}/api/needs`, { headers: { authorization: `Bearer ${api!.token}` } })
        expect(raw.status).toBe(503)
        expect(raw.headers.get('content-type')).toStartWith('application/problem+json')
        expect((await api!.call('POST', '/api/needs', { partnerId: partner!.id })).status).toBe(503)
        const ready = await fetch(`${server.url}/readyz`)
        expect(ready.status).toBe(503)
        expect(ready.headers.get('content-type')).toStartWith('application/problem+json')
        expect(server.exitCode).toBeNull()

        phase('503s')
        cluster('resume', dir, port)
        phase('resume')
        const resumedAt = Date.now()
        const back = await waitFor(async () => (await api!.call('GET', '/api/needs')).status === 200, 20_000, 100)
        console.log(`database back: GET /api/needs answered 200 after ${Date.now() - resumedAt} ms`)
        expect(back).toBe(true)
        expect(server.exitCode).toBeNull()
        const created = await api!.expect<{ referenceNumber: string }>(201, 'POST', '/api/needs', { partnerId: partner!.id })
        expect(created.referenceNumber).toBe('REQ-1002')
        await api!.expect(200, 'GET', '/readyz')

        // The outbox worker came through too: a text queued now is sent (the log provider).
        const constituent = await api!.expect<{ id: string }>(201, 'POST', '/api/constituents', { firstName: 'Robin', phone: CONSTITUENT_PHONE })
        const need = await api!.expect<{ id: string }>(201, 'POST', '/api/needs', { partnerId: partner!.id, constituentId: constituent.id })
        await api!.expect(202, 'POST', `/api/needs/${need.id}/sms`, { body: 'after the restart' })
        const sent = await waitFor(async () => (await textsOf(api!, need.id)).some((t) => t.deliveryStatus === 'sent'), 10_000, 50)
        expect(sent).toBe(true)
        phase('after the restart')

        expect(await server.stop('SIGTERM')).toBe(0)
        phase('SIGTERM')
      } finally {
        console.log(`restart test: ${phases.join(', ')}`)
        await killAllServers()
        cluster('stop', dir, port)
      }
    },
    120_000,
  )
})
