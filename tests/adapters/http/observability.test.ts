import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { statSync } from 'node:fs'
import v8 from 'node:v8'
import { startTestServer, TEST_DATABASE, type TestServer } from '../../support/http'
import { expectProblem } from './helpers'

// docs/observability.md: one access-log line per request, the request id on every line it causes, and
// GET /metrics in Prometheus's text format, behind METRICS_TOKEN when one is set.
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789'

let api: TestServer
let admin: string

beforeAll(async () => {
  // The worker stays off: this file sends the outbox itself, to see what waits in it.
  api = await startTestServer({ METRICS_TOKEN, SERVE_RUNS_WORKER: 'false' })
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

interface LogLine {
  level: string
  message: string
  requestId?: string
  memberId?: string
  method?: string
  route?: string
  status?: number
  durationMs?: number
  error?: string
}

const linesOf = (requestId: string): LogLine[] =>
  api.logs.map((line) => JSON.parse(line) as LogLine).filter((line) => line.requestId === requestId)

async function scrape(): Promise<string> {
  const response = await api.call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toStartWith('text/plain')
  return String(response.body)
}

/** A sample's value in a scrape, 0 when absent. */
function sampleValue(text: string, sample: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `))
  return line ? Number(line.slice(sample.length + 1)) : 0
}

describe('access log', () => {
  test('one line per request: its id, method, route template, status, duration and member; nothing of the path, query, token or body', async () => {
    const phone = '+15550142211'
    const created = await api.call('POST', '/api/constituents', {
      token: admin,
      body: { firstName: 'Perpetua', lastName: 'Quill', phone },
      headers: { 'x-request-id': 'obs-create' },
    })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    await api.call('GET', `/api/constituents?query=Perpetua&limit=5`, { token: admin, headers: { 'x-request-id': 'obs-search' } })
    await api.call('GET', `/api/needs/${id}`, { token: admin, headers: { 'x-request-id': 'obs-missing' } })

    const [create] = linesOf('obs-create').filter((l) => l.message === 'request')
    expect(linesOf('obs-create').filter((l) => l.message === 'request')).toHaveLength(1)
    expect(create).toMatchObject({ level: 'info', method: 'POST', route: '/api/constituents', status: 201, memberId: expect.any(String) })
    expect(create!.durationMs).toBeGreaterThanOrEqual(0)
    expect(linesOf('obs-missing').find((l) => l.message === 'request')).toMatchObject({ route: '/api/needs/:id', status: 404 })
    expect(linesOf('obs-search').find((l) => l.message === 'request')).toMatchObject({ route: '/api/constituents', status: 200 })

    const written = api.logs.filter((line) => /"requestId":"obs-(create|search|missing)"/.test(line)).join('\n')
    for (const secret of ['Perpetua', 'Quill', phone, admin, id, 'query=']) expect(written).not.toContain(secret)
  })

  test('an anonymous request has no member; an unknown route is "unmatched"', async () => {
    await api.call('GET', '/no/such/route', { headers: { 'x-request-id': 'obs-unknown' } })
    await api.call('GET', '/api/needs', { headers: { 'x-request-id': 'obs-anonymous' } })
    expect(linesOf('obs-unknown').find((l) => l.message === 'request')).toMatchObject({ route: 'unmatched', status: 404 })
    const anonymous = linesOf('obs-anonymous').find((l) => l.message === 'request')
    expect(anonymous).toMatchObject({ route: '/api/needs', status: 401 })
    expect(anonymous!.memberId).toBeUndefined()
  })

  test('every line a request causes carries its request id and member, its own error report included', async () => {
    const listPartners = api.world.useCases.partners.list
    const execute = listPartners.execute
    try {
      listPartners.execute = () => Promise.reject(new Error('the disk is on fire'))
      expectProblem(
        await api.call('GET', '/api/partners', { token: admin, headers: { 'x-request-id': 'obs-500' } }),
        500,
        'Internal server error',
      )
    } finally {
      listPartners.execute = execute
    }
    const lines = linesOf('obs-500')
    expect(lines.map((l) => l.message).sort()).toEqual(['request', 'unexpected error'])
    expect(lines.find((l) => l.message === 'unexpected error')!.error).toContain('the disk is on fire')
    expect(new Set(lines.map((l) => l.memberId)).size).toBe(1)
    expect(lines[0]!.memberId).toBeDefined()
  })
})

describe('GET /metrics', () => {
  test('without METRICS_TOKEN, or with another, is a 401 problem', async () => {
    expectProblem(await api.call('GET', '/metrics'), 401, 'Unauthorized')
    expectProblem(await api.call('GET', '/metrics', { headers: { authorization: 'Bearer not-the-token-at-all' } }), 401, 'Unauthorized')
    expectProblem(await api.call('GET', '/metrics', { token: admin }), 401, 'Unauthorized')
  })

  test('counts requests by method, route template and status, with their durations', async () => {
    const sample = 'intake_http_requests_total{method="GET",route="/api/partners",status="200"}'
    const before = sampleValue(await scrape(), sample)
    for (let i = 0; i < 3; i++) expect((await api.call('GET', '/api/partners', { token: admin })).status).toBe(200)
    const after = await scrape()
    expect(sampleValue(after, sample)).toBe(before + 3)
    expect(sampleValue(after, 'intake_http_request_duration_seconds_count{method="GET",route="/api/partners",status="200"}')).toBe(
      before + 3,
    )
    // No concrete path ever becomes a label.
    expect(after).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/)
    expect(after).toContain('process_resident_memory_bytes')
  })

  test('a scrape reads the size of the heap without walking it (on Bun a walk costs in proportion to every live object): only the first one probes', async () => {
    // The process's figures are set up by the first scrape of the process, where prom-client probes once.
    await scrape()
    const walks = [spyOn(v8, 'getHeapSpaceStatistics'), spyOn(v8, 'getHeapStatistics')]
    try {
      const text = await scrape()
      expect(text).toContain('nodejs_heap_size_used_bytes')
      for (const walk of walks) expect(walk).not.toHaveBeenCalled()
    } finally {
      for (const walk of walks) walk.mockRestore()
    }
  })

  test('shows what waits in the outbox and how old it is, then what the worker sent', async () => {
    const email = `metrics-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: admin, body: { email, role: 'staff' } })).status).toBe(201)
    const queued = await scrape()
    expect(sampleValue(queued, 'intake_outbox_messages{status="pending"}')).toBeGreaterThanOrEqual(1)
    expect(sampleValue(queued, 'intake_outbox_oldest_message_age_seconds')).toBeGreaterThan(0)
    const sentBefore = sampleValue(queued, 'intake_messages_sent_total{channel="email"}')

    while ((await api.world.useCases.operations.dispatchOutbox.runOnce()) > 0);
    const sent = await scrape()
    expect(sampleValue(sent, 'intake_outbox_messages{status="pending"}')).toBe(0)
    expect(sampleValue(sent, 'intake_outbox_oldest_message_age_seconds')).toBe(0)
    expect(sampleValue(sent, 'intake_messages_sent_total{channel="email"}')).toBeGreaterThan(sentBefore)
  })

  test('shows the size of the SQLite write-ahead log file; on PostgreSQL there is none', async () => {
    expect((await api.call('POST', '/api/constituents', { token: admin, body: { firstName: 'Wal', lastName: 'Gauge' } })).status).toBe(201)
    const text = await scrape()
    if (api.sqlitePath) {
      expect(sampleValue(text, 'intake_sqlite_wal_bytes')).toBeGreaterThan(0)
      expect(sampleValue(text, 'intake_sqlite_wal_bytes')).toBe(statSync(`${api.sqlitePath}-wal`).size)
    } else {
      expect(text).not.toContain('intake_sqlite_wal_bytes')
    }
  })

  test('counts the requests answered 503 because the database did not answer, by kind', async () => {
    const sample = `intake_database_errors_total{kind="${TEST_DATABASE === 'postgres' ? 'unreachable' : 'busy'}"}`
    const before = sampleValue(await scrape(), sample)
    const listPartners = api.world.useCases.partners.list
    const execute = listPartners.execute
    // What each driver says when its database is away.
    const away = Object.assign(new Error('the database is away'), { code: TEST_DATABASE === 'postgres' ? 'ECONNREFUSED' : 'SQLITE_BUSY' })
    try {
      listPartners.execute = () => Promise.reject(away)
      expectProblem(await api.call('GET', '/api/partners', { token: admin }), 503, 'Service unavailable')
    } finally {
      listPartners.execute = execute
    }
    expect(sampleValue(await scrape(), sample)).toBe(before + 1)
  })
})
