import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TwilioMock } from '../support/twilio-mock'
import { ApiClient, killAllServers, runCli, ServeProcess, textsOf, waitFor } from './cli-process'

// SMS crash safety and graceful shutdown, against the real `intake serve` in a child process and
// a Twilio-compatible mock that lives here, in the test process, so it outlives the child it watches.

const ORG = 'crash-test'
const ADMIN = { email: 'admin@crash.example.org', password: 'a long enough password 42' }
const ORG_NUMBER = '+15550001111'
const CONSTITUENT_PHONE = '+15557654321'

const dirs: string[] = []
const mocks: TwilioMock[] = []

afterAll(async () => {
  await killAllServers()
  await Promise.all(mocks.map((m) => m.stop()))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A fresh database with one organization, its SMS number, a constituent and a need; and an env for `serve`. */
async function prepare(mock: TwilioMock, extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'intake-sms-crash-'))
  dirs.push(dir)
  const env: Record<string, string> = {
    DATABASE_URL: `sqlite:${join(dir, 'intake.sqlite')}`,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
    TWILIO_AUTH_TOKEN: 'test-auth-token',
    TWILIO_API_BASE_URL: mock.url,
    OUTBOX_POLL_MS: '50',
    OUTBOX_LEASE_MS: '1500',
    LOG_LEVEL: 'warn',
    // Hundreds of texts from one admin to one number: the limits on texts have their own tests.
    SMS_PER_RECIPIENT_PER_HOUR: '100000',
    SMS_PER_MEMBER_PER_HOUR: '100000',
    ...extraEnv,
  }
  for (const args of [
    ['org', 'create', '--name', 'Crash Test', '--slug', ORG, '--admin-email', ADMIN.email, '--admin-password', ADMIN.password],
    ['org', 'set-phone-number', '--org', ORG, '--phone', ORG_NUMBER],
  ]) {
    const result = await runCli(args, env)
    if (result.code !== 0) throw new Error(`intake ${args.join(' ')} failed (${result.code}):\n${result.output}`)
  }
  return env
}

/** Logs in on `serve` and answers a client and the id of a need whose constituent has a phone. */
async function setUpNeed(serve: ServeProcess, maxConcurrency: number): Promise<{ api: ApiClient; needId: string }> {
  const api = new ApiClient(serve.url)
  await api.login(ADMIN.email, ADMIN.password)
  await api.expect(200, 'PUT', '/api/organizations/settings', { name: 'Crash Test', slug: ORG, maxConcurrency })
  const [partner] = await api.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')
  const constituent = await api.expect<{ id: string }>(201, 'POST', '/api/constituents', { firstName: 'Casey', phone: CONSTITUENT_PHONE })
  const need = await api.expect<{ id: string }>(201, 'POST', '/api/needs', { partnerId: partner!.id, constituentId: constituent.id })
  return { api, needId: need.id }
}

/** Queues `count` texts with distinct bodies ("message 000", ...), a few requests at a time. */
async function queueTexts(api: ApiClient, needId: string, count: number): Promise<string[]> {
  const bodies = Array.from({ length: count }, (_, i) => `message ${String(i).padStart(3, '0')}`)
  for (let i = 0; i < bodies.length; i += 20) {
    await Promise.all(bodies.slice(i, i + 20).map((body) => api.expect(202, 'POST', `/api/needs/${needId}/sms`, { body })))
  }
  return bodies
}

/** How many times each body reached the mock. */
function arrivals(mock: TwilioMock): Map<string, number> {
  const counts = new Map<string, number>()
  for (const m of mock.messages) counts.set(m.body, (counts.get(m.body) ?? 0) + 1)
  return counts
}

/** Whether a new TCP connection to `url` is refused. */
function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) })
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

describe('SMS outbox across process deaths', () => {
  test('SIGKILL in the middle of 200 queued texts: after a restart every text reaches the provider exactly once', async () => {
    const mock = new TwilioMock({ delayMs: 50 }).start()
    mocks.push(mock)
    const maxConcurrency = 4
    const env = await prepare(mock)

    // Queue everything with a server that does not send, so the batch starts whole.
    const queuing = await ServeProcess.start({ ...env, SERVE_RUNS_WORKER: 'false' })
    const { api: queuer, needId } = await setUpNeed(queuing, maxConcurrency)
    const bodies = await queueTexts(queuer, needId, 200)
    expect(await queuing.stop('SIGTERM')).toBe(0)
    expect(mock.messages).toHaveLength(0)

    const first = await ServeProcess.start(env)
    // Mid-batch, and with texts in flight, so some are in doubt when the process dies.
    const midBatch = await waitFor(() => mock.messages.length >= 60 && mock.inFlight > 0, 30_000, 2)
    first.kill('SIGKILL')
    const arrivedBeforeKill = mock.messages.length
    const inFlightAtKill = mock.inFlight
    await first.exited
    expect(midBatch).toBe(true)
    await waitFor(() => mock.inFlight === 0, 5_000)
    const arrivedAfterKillSettled = mock.messages.length
    console.log(
      `SIGKILL: ${arrivedBeforeKill} of 200 texts had reached the mock, ${inFlightAtKill} requests were in flight ` +
        `(${arrivedAfterKillSettled} at the mock once those ended)`,
    )
    expect(arrivedBeforeKill).toBeLessThan(150)
    expect(inFlightAtKill).toBeGreaterThan(0)
    const getsBeforeRestart = mock.requests.filter((r) => r.method === 'GET').length

    const second = await ServeProcess.start(env)
    const api = new ApiClient(second.url)
    await api.login(ADMIN.email, ADMIN.password)
    const allArrived = await waitFor(() => arrivals(mock).size === 200, 60_000, 50)
    // Every interaction recorded as sent: the outbox has settled, nothing more is coming.
    const settled = await waitFor(async () => (await textsOf(api, needId)).every((t) => t.deliveryStatus === 'sent'), 20_000, 100)
    const lookups = mock.requests.filter((r) => r.method === 'GET').length - getsBeforeRestart
    console.log(`restart: ${mock.messages.length} POSTs accepted in all, ${lookups} provider look-ups for texts in doubt`)
    expect(allArrived).toBe(true)
    expect(settled).toBe(true)

    const counts = arrivals(mock)
    expect(bodies.filter((b) => counts.get(b) !== 1)).toEqual([])
    expect(mock.messages).toHaveLength(200)
    expect([...counts.keys()].sort()).toEqual(bodies)
    // Each text that was in flight when the process died was looked up before anything was resent.
    expect(lookups).toBeGreaterThanOrEqual(inFlightAtKill)

    const sidOf = new Map(mock.messages.map((m) => [m.body, m.sid]))
    const texts = await textsOf(api, needId)
    expect(texts).toHaveLength(200)
    for (const text of texts) {
      expect({ body: text.content, status: text.deliveryStatus, sid: text.providerMessageId }).toEqual({
        body: text.content,
        status: 'sent',
        sid: sidOf.get(text.content)!,
      })
    }
    expect(new Set(texts.map((t) => t.providerMessageId)).size).toBe(200)
    expect(mock.maxInFlight).toBeLessThanOrEqual(maxConcurrency)

    expect(await second.stop('SIGTERM')).toBe(0)
  }, 120_000)

  test('SIGTERM while texts are in flight: the server stops taking connections, answers are recorded, exit 0, nothing sent twice', async () => {
    const mock = new TwilioMock({ delayMs: 400 }).start()
    mocks.push(mock)
    const maxConcurrency = 5
    // A lease far longer than the test: a text left half-sent would stay stuck and show, not be recovered.
    const env = await prepare(mock, { OUTBOX_LEASE_MS: '600000' })

    const queuing = await ServeProcess.start({ ...env, SERVE_RUNS_WORKER: 'false' })
    const { api: queuer, needId } = await setUpNeed(queuing, maxConcurrency)
    const bodies = await queueTexts(queuer, needId, 20)
    expect(await queuing.stop('SIGTERM')).toBe(0)

    const sender = await ServeProcess.start(env)
    // The first round has been answered and the whole second round is being held by the mock.
    const midway = await waitFor(() => mock.messages.length >= maxConcurrency && mock.inFlight === maxConcurrency, 20_000, 2)
    expect(midway).toBe(true)
    const signalledAt = Date.now()
    sender.kill('SIGTERM')
    const inFlightAtSignal = mock.inFlight
    const postsAtSignal = mock.messages.length + mock.inFlight

    // New connections are refused while the process is still finishing the texts in flight.
    // (a refusal seen with the process still running afterwards was seen while it was alive)
    const refusedWhileAlive = await waitFor(async () => (await refusesConnections(sender.url)) && sender.exitCode === null, 2_000, 5)
    const code = await sender.waitForExit(10_000)
    const tookMs = Date.now() - signalledAt
    const received = new Map(mock.messages.map((m) => [m.body, m.sid]))
    console.log(
      `SIGTERM: ${inFlightAtSignal} texts in flight at the signal, ${received.size} of 20 at the mock when the process ` +
        `exited ${code} after ${tookMs} ms; new connections refused before the exit: ${refusedWhileAlive}`,
    )
    expect(code).toBe(0)
    expect(tookMs).toBeLessThan(5_000)
    expect(refusedWhileAlive).toBe(true)
    expect(mock.inFlight).toBe(0)
    // What was in flight finished; no text was started after the signal (every slot was busy until the exit).
    expect(mock.messages.length).toBe(postsAtSignal)
    expect(mock.messages.length).toBeLessThan(20)

    // Before anything sends again: every text the mock took is recorded `sent` with the mock's sid, the rest still queued.
    const reader = await ServeProcess.start({ ...env, SERVE_RUNS_WORKER: 'false' })
    const readApi = new ApiClient(reader.url)
    await readApi.login(ADMIN.email, ADMIN.password)
    const recorded = await textsOf(readApi, needId)
    expect(recorded).toHaveLength(20)
    for (const text of recorded) {
      const sid = received.get(text.content)
      expect({ body: text.content, status: text.deliveryStatus, sid: text.providerMessageId }).toEqual(
        sid ? { body: text.content, status: 'sent', sid } : { body: text.content, status: 'queued', sid: undefined },
      )
    }
    expect(await reader.stop('SIGTERM')).toBe(0)

    // A restart sends the rest, once each, without having to ask the provider about anything.
    const restarted = await ServeProcess.start(env)
    const api = new ApiClient(restarted.url)
    await api.login(ADMIN.email, ADMIN.password)
    const allArrived = await waitFor(() => arrivals(mock).size === 20, 20_000, 20)
    const settled = await waitFor(async () => (await textsOf(api, needId)).every((t) => t.deliveryStatus === 'sent'), 10_000, 50)
    expect(allArrived).toBe(true)
    expect(settled).toBe(true)
    const counts = arrivals(mock)
    expect(bodies.filter((b) => counts.get(b) !== 1)).toEqual([])
    expect(mock.messages).toHaveLength(20)
    expect(mock.requests.filter((r) => r.method === 'GET')).toHaveLength(0)
    const sidOf = new Map(mock.messages.map((m) => [m.body, m.sid]))
    for (const text of await textsOf(api, needId)) expect(text.providerMessageId).toBe(sidOf.get(text.content)!)
    expect(mock.maxInFlight).toBeLessThanOrEqual(maxConcurrency)
    expect(await restarted.stop('SIGTERM')).toBe(0)
  }, 60_000)
})
