import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import postgres from 'postgres'
import { PORTS } from '../../../src/main/container'
import { createTestDatabase, TEST_POSTGRES_URL } from '../../support/postgres'
import { startTestServer, TEST_DATABASE, type ApiResponse, type TestServer } from '../../support/http'
import { expectProblem } from './helpers'
import { TEST_PASSWORD } from '../../support/world'

// docs/reliability.md, docs/observability.md: the database out of disk, of connections, or shutting down is
// an outage, not a bug. Requests answer 503 with Retry-After, counted by kind and logged once per burst;
// /readyz answers 503 while writes fail; a read that audits fails rather than show data unaudited; and all
// of it recovers by itself once the database can write again.
let api: TestServer
let admin: string
let adminEmail: string
let constituentId: string
/** SQLite: the server's writer connection; PostgreSQL: the role the server connects as, and its database. */
let writer: Database
let limited: { role: string; admin: postgres.Sql; drop(): Promise<void> }

/** Values of this test's constituent, looked for in every answer and log line while the database fails. */
const PERSONAL = { firstName: 'Outage', lastName: 'Quillfeather', phone: '+15550142857' }

beforeAll(async () => {
  if (TEST_DATABASE === 'postgres') {
    // A role that is no superuser (superusers pass every connection limit), owning a database of its own.
    const database = await createTestDatabase()
    const role = `intake_limited_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`
    const adminSql = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} })
    await adminSql.unsafe(`CREATE ROLE ${role} LOGIN`)
    await adminSql.unsafe(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} OWNER TO ${role}`)
    const url = new URL(database.url)
    url.username = role
    limited = {
      role,
      admin: adminSql,
      async drop() {
        await database.drop()
        await adminSql.unsafe(`DROP ROLE IF EXISTS ${role}`)
        await adminSql.end()
      },
    }
    api = await startTestServer({ DATABASE_URL: url.toString() })
  } else {
    api = await startTestServer()
    writer = (api.server.container.get(PORTS.persistence) as unknown as { writer: Database }).writer
  }
  admin = await api.tokenFor(api.world, 'org_admin')
  adminEmail = (await api.call('GET', '/api/profile', { token: admin })).body.email
  constituentId = (await api.call('POST', '/api/constituents', { token: admin, body: PERSONAL })).body.id
})
afterAll(async () => {
  await api.stop()
  await limited?.drop()
}, 30_000)

const newNeed = () =>
  api.call('POST', '/api/needs', {
    token: admin,
    body: { partnerId: api.world.defaultPartner.id, customFields: { notes: 'n'.repeat(16_000) } },
  })

/** intake_database_errors_total by kind, as a scrape shows it (while the database fails, too). */
async function databaseErrors(): Promise<Record<string, number>> {
  const text = (await api.call('GET', '/metrics')).body as string
  return Object.fromEntries(
    [...text.matchAll(/^intake_database_errors_total\{kind="(\w+)"\} (\S+)$/gm)].map(([, kind, value]) => [kind!, Number(value)]),
  )
}

function expectOutage(response: ApiResponse) {
  const problem = expectProblem(response, 503, 'Service unavailable')
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(JSON.stringify(problem)).not.toContain(PERSONAL.lastName)
}

/** Calls until an answer is no success (at most 500 times: a page of the file fills long before); answers it. */
async function untilOutage(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let tries = 1; ; tries++) {
    const response = await call()
    if (response.status >= 300 || tries === 500) return response
  }
}

/** Calls until an answer is a success, at most 10 times; answers the last. */
async function untilSuccess(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let tries = 1; ; tries++) {
    const response = await call()
    if (response.status < 300 || tries === 10) return response
  }
}

/** Makes writes fail for real; answers how to undo it. */
async function breakWrites(): Promise<{ kind: string; repair(): Promise<void> }> {
  if (TEST_DATABASE === 'postgres') {
    // No new connection for the role, and the ones its pool holds ended: every query needs a new one.
    await limited.admin.unsafe(`ALTER ROLE ${limited.role} CONNECTION LIMIT 0`)
    await limited.admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ${limited.role}`
    return {
      kind: 'too_many_connections',
      repair: async () => void (await limited.admin.unsafe(`ALTER ROLE ${limited.role} CONNECTION LIMIT -1`)),
    }
  }
  // The file may not grow past its size: a write that needs a page more fails with SQLITE_FULL, as on a full disk.
  const { page_count } = writer.query('PRAGMA page_count').get() as { page_count: number }
  writer.exec(`PRAGMA max_page_count = ${page_count}`)
  return { kind: 'disk_full', repair: async () => void writer.exec('PRAGMA max_page_count = 4294967294') }
}

describe('the database cannot write', () => {
  test('writes and reads that audit answer 503 with Retry-After, counted by kind and logged once; /readyz 503; all recovers', async () => {
    const { kind, repair } = await breakWrites()
    const before = await databaseErrors()
    const logsBefore = api.logs.length
    try {
      // A need of 16 KB needs pages a full file does not have (the first may still find free ones), and
      // PostgreSQL a connection it may not open.
      expectOutage(await untilOutage(newNeed))
      for (let i = 0; i < 10; i++) expectOutage(await newNeed())
      // A unit that changes nothing (the outbox's poll finding nothing due) goes through (SQLite) or fails
      // (PostgreSQL, no connection): either way it tells nothing of whether writes work again.
      await api.server.container
        .get(PORTS.unitOfWork)
        .run(async () => {})
        .catch(() => {})
      expect((await api.call('GET', '/readyz')).status).toBe(503)

      // Each read of personal data records an audit event; once that write fails, the read does too, and
      // every read after it.
      expectOutage(await untilOutage(() => api.call('GET', `/api/constituents/${constituentId}`, { token: admin })))
      expectOutage(await api.call('GET', `/api/constituents/${constituentId}`, { token: admin }))
      expectOutage(await api.call('GET', `/api/constituents?query=${PERSONAL.lastName}`, { token: admin }))
      // A login records its session: it cannot be let in half.
      const login = () => api.call('POST', '/api/auth/login', { body: { email: adminEmail, password: TEST_PASSWORD } })
      expectOutage(await untilOutage(login))

      // Every 503 counted, by kind (PostgreSQL may first see the ended connections fail otherwise).
      const after = await databaseErrors()
      const counted = Object.entries(after).map(([k, value]) => value - before[k]!)
      expect(counted.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(14)
      expect(after[kind]! - before[kind]!).toBeGreaterThan(0)
      // One line per kind of outage, not one per request.
      const lines = api.logs.slice(logsBefore).map((line) => JSON.parse(line) as { message: string; level: string; kind?: string })
      const outageLines = lines.filter((line) => line.message === 'database unavailable')
      expect(outageLines.map((line) => line.kind)).toContain(kind)
      expect(new Set(outageLines.map((line) => line.kind)).size).toBe(outageLines.length)
      expect(lines.filter((line) => line.message === 'unexpected error')).toEqual([])
      expect(api.logs.slice(logsBefore).join('\n')).not.toContain(PERSONAL.lastName)
    } finally {
      await repair()
    }
    // A connection attempt begun before the repair may still be refused: the next ones are not.
    expect((await untilSuccess(newNeed)).status).toBe(201)
    expect((await api.call('GET', '/readyz')).status).toBe(200)
    expect((await api.call('GET', `/api/constituents/${constituentId}`, { token: admin })).body.lastName).toBe(PERSONAL.lastName)
    // PostgreSQL: the client may wait out its connect timeout (5 s) on a refused connection, request after request.
  }, 120_000)

  test('an administrator’s shutdown (57P01) or a failing disk (SQLITE_IOERR) the driver reports is 503 too, and passes', async () => {
    const [code, kind] = TEST_DATABASE === 'postgres' ? ['57P01', 'shutdown'] : ['SQLITE_IOERR_WRITE', 'io_error']
    const before = await databaseErrors()
    const listPartners = api.world.useCases.partners.list
    const execute = listPartners.execute
    const cause = Object.assign(new Error('terminating connection due to administrator command'), { code })
    try {
      listPartners.execute = () =>
        Promise.reject(new DrizzleQueryError('select "id" from "partners" where "organization_id" = $1', [PERSONAL.lastName], cause))
      expectOutage(await api.call('GET', '/api/partners', { token: admin }))
    } finally {
      listPartners.execute = execute
    }
    expect((await databaseErrors())[kind]).toBe(before[kind]! + 1)
    expect((await api.call('GET', '/api/partners', { token: admin })).status).toBe(200)
  }, 30_000)

  test.each([
    ['UNIT_IN_DOUBT', 'in_doubt', 'it may have been saved. Retry with the same Idempotency-Key'],
    ['UNIT_TIMED_OUT', 'timed_out', 'did not answer in time; nothing was changed'],
    ['25006', 'read_only', 'cannot take writes now'],
  ])(
    'a create failed by %s (DATABASE_QUERY_TIMEOUT_MS, a failover) is 503 saying what happened to the change',
    async (code, kind, words) => {
      const before = await databaseErrors()
      const create = api.world.useCases.needs.create
      const execute = create.execute
      try {
        create.execute = () => Promise.reject(Object.assign(new Error('the database did not answer'), { code }))
        const response = await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })
        expectOutage(response)
        expect(response.body.detail).toContain(words)
      } finally {
        create.execute = execute
      }
      expect((await databaseErrors())[kind]).toBe(before[kind]! + 1)
    },
  )
})
