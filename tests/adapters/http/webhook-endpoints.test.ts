import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { startTestServer, type TestServer } from '../../support/http'
import { startWebhookReceiver } from '../../support/webhook-receiver'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, ISO_MS, UNKNOWN_ID } from './helpers'

// docs/events.md over real HTTP, on SQLite or PostgreSQL (TEST_DATABASE), with a real receiver on 127.0.0.1
// that checks every signature itself.
type Endpoint = {
  id: string
  url: string
  events: string[]
  enabled: boolean
  consecutiveFailures: number
  disabledAt?: string
  createdAt: string
  updatedAt: string
  secret?: string
}
type Delivery = {
  id: string
  eventType: string
  status: string
  attempts: number
  lastStatusCode?: number
  lastError?: string
  nextAttemptAt?: string
  createdAt: string
  deliveredAt?: string
}

const ENDPOINTS = '/api/webhook-endpoints'

let api: TestServer
let world: World
let otherWorld: World
let receiver: ReturnType<typeof startWebhookReceiver>
const tokens: Record<string, string> = {}

beforeAll(async () => {
  api = await startTestServer()
  receiver = startWebhookReceiver()
  world = api.world
  otherWorld = await world.otherOrganization()
  const [admin, staff, otherAdmin] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'staff'),
    api.tokenFor(otherWorld, 'org_admin'),
  ])
  Object.assign(tokens, { admin, staff, otherAdmin })
})
afterAll(async () => {
  receiver.stop()
  await api.stop()
})

/** A new endpoint at `path` of the receiver, its secret handed to the receiver. */
async function createEndpoint(
  path: string,
  events: string[] = ['need.created', 'need.updated', 'note.added'],
): Promise<Endpoint & { secret: string }> {
  const response = await api.call<Endpoint & { secret: string }>('POST', ENDPOINTS, {
    token: tokens.admin,
    body: { url: receiver.url(path), events },
  })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  receiver.secretFor(path, response.body.secret)
  return response.body
}

const createNeed = async (customFields: Record<string, string> = {}) => {
  const response = await api.call<{ id: string }>('POST', '/api/needs', {
    token: tokens.admin,
    body: { partnerId: world.defaultPartner.id, customFields },
  })
  expect(response.status).toBe(201)
  return response.body
}

const deliveries = async (endpointId: string) => {
  const response = await api.call<Delivery[]>('GET', `${ENDPOINTS}/${endpointId}/deliveries`, { token: tokens.admin })
  expect(response.status).toBe(200)
  return response.body
}

/** Runs the outbox (the server's own worker may run too) until `done` holds. */
async function dispatchUntil(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const dispatch = api.server.container.get(DispatchOutbox)
  for (let i = 0; i < 200; i++) {
    await dispatch.runOnce()
    if (await done()) return
    await Bun.sleep(10)
  }
  throw new Error(`${what} never happened`)
}

const receivedAt = (path: string) => receiver.received.filter((r) => r.path === path)

describe('managing endpoints', () => {
  test('POST answers the secret once, whsec_ and 32 bytes of base64; GET, the list and the database never show it again', async () => {
    const created = await createEndpoint('/managed')
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32)
    expect(created).toMatchObject({ url: receiver.url('/managed'), enabled: true, consecutiveFailures: 0 })
    expect(created.createdAt).toMatch(ISO_MS)

    const read = await api.call<Endpoint>('GET', `${ENDPOINTS}/${created.id}`, { token: tokens.admin })
    expect(read.status).toBe(200)
    expect(read.body).not.toHaveProperty('secret')
    const list = await api.call<Endpoint[]>('GET', ENDPOINTS, { token: tokens.admin })
    expect(list.body.map((e) => e.id)).toContain(created.id)
    expect(JSON.stringify(list.body)).not.toContain(created.secret.slice(6))
    expect(list.headers.get('x-total-count')).toBe(String(list.body.length))

    const secretBytes = created.secret.slice('whsec_'.length)
    for (const bytes of await api.storedBytes()) expect(bytes.includes(secretBytes)).toBe(false)
    expect(api.logs.join('\n')).not.toContain(secretBytes)
  })

  test('the URL, the events and unknown fields are checked, each at its path', async () => {
    const post = (body: unknown) => api.call('POST', ENDPOINTS, { token: tokens.admin, body })
    expectBadRequest(await post({ url: 'ftp://example.org/hook', events: ['need.created'] }), '/url')
    expectBadRequest(await post({ url: 'https://user:pw@example.org/hook', events: ['need.created'] }), '/url')
    expectBadRequest(await post({ url: `https://example.org/${'a'.repeat(2001)}`, events: ['need.created'] }), '/url')
    expectBadRequest(await post({ url: 'https://example.org/hook', events: ['need.deleted'] }), '/events')
    expectBadRequest(await post({ url: 'https://example.org/hook', events: [] }), '/events')
    expectBadRequest(await post({ url: 'https://example.org/hook', events: ['need.created', 'need.created'] }), '/events')
    expectBadRequest(await post({ url: 'https://example.org/hook', events: ['need.created'], secret: 'mine' }), 'secret')
  })

  test('org_admin only; another organization sees none of them (404)', async () => {
    const endpoint = await createEndpoint('/private')
    expectProblem(await api.call('GET', ENDPOINTS, { token: tokens.staff }), 403, 'Forbidden')
    expectProblem(
      await api.call('POST', ENDPOINTS, { token: tokens.staff, body: { url: 'https://example.org/x', events: ['need.created'] } }),
      403,
      'Forbidden',
    )
    expectProblem(await api.call('GET', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.otherAdmin }), 404, 'Not found')
    expectProblem(
      await api.call('PUT', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.otherAdmin, body: { enabled: false } }),
      404,
      'Not found',
    )
    expectProblem(await api.call('DELETE', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.otherAdmin }), 404, 'Not found')
    expectProblem(await api.call('GET', `${ENDPOINTS}/${endpoint.id}/deliveries`, { token: tokens.otherAdmin }), 404, 'Not found')
    const theirs = await api.call<Endpoint[]>('GET', ENDPOINTS, { token: tokens.otherAdmin })
    expect(theirs.body).toEqual([])
    expectProblem(await api.call('GET', `${ENDPOINTS}/${UNKNOWN_ID}`, { token: tokens.admin }), 404, 'Not found')
    expect((await api.call('GET', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.admin })).status).toBe(200)
  })

  test('PUT changes what is given; DELETE removes the endpoint and what still waits for it is never sent', async () => {
    const endpoint = await createEndpoint('/deleted', ['need.created'])
    const put = await api.call<Endpoint>('PUT', `${ENDPOINTS}/${endpoint.id}`, {
      token: tokens.admin,
      body: { events: ['need.created', 'note.added'] },
    })
    expect(put.body).toMatchObject({ url: endpoint.url, events: ['need.created', 'note.added'], enabled: true })

    // Queued for the endpoint, which then goes. The server's own worker may try it first: refused, it would wait for a retry.
    receiver.answerWith((path) => (path === '/deleted' ? 503 : 200))
    try {
      await createNeed()
      expect((await api.call('DELETE', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.admin })).status).toBe(204)
      expectProblem(await api.call('GET', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.admin }), 404, 'Not found')
      const triedBefore = receivedAt('/deleted').length
      world.clock.advance(10_000)
      await api.server.container.get(DispatchOutbox).runOnce()
      expect(receivedAt('/deleted')).toHaveLength(triedBefore)
    } finally {
      receiver.answerWith(() => 200)
    }
  })
})

describe('delivering events', () => {
  test('a new need reaches the endpoint signed, with the Standard Webhooks headers, a thin body and no personal data', async () => {
    const endpoint = await createEndpoint('/needs')
    const need = await createNeed({ firstName: 'Grace', lastName: 'Hopper', phone: '+15035550101' })
    await dispatchUntil(() => receivedAt('/needs').some((r) => r.body.data.needId === need.id), 'the need.created delivery')

    const [event] = receivedAt('/needs').filter((r) => r.body.data.needId === need.id)
    expect(event!.signatureValid).toBe(true)
    expect(event!.body).toEqual({ type: 'need.created', timestamp: expect.stringMatching(ISO_MS), data: { needId: need.id } })
    expect(event!.raw).not.toContain('Grace')
    expect(event!.raw).not.toContain('+1503')
    expect(event!.timestamp).toBe(Math.floor(world.clock.now().getTime() / 1000))

    await dispatchUntil(
      async () => (await deliveries(endpoint.id)).some((d) => d.id === event!.id && d.status === 'sent'),
      'the delivery recorded as sent',
    )
    const delivery = (await deliveries(endpoint.id)).find((d) => d.id === event!.id)!
    expect(delivery).toMatchObject({ eventType: 'need.created', status: 'sent', attempts: 1, lastStatusCode: 200 })
    expect(delivery.deliveredAt).toMatch(ISO_MS)
  })

  test('only the events an endpoint subscribes to reach it; a note and an update each send their own', async () => {
    await createEndpoint('/notes', ['note.added'])
    await createEndpoint('/updates', ['need.updated'])
    const need = await createNeed()
    expect(
      (await api.call('POST', `/api/needs/${need.id}/notes`, { token: tokens.admin, body: { content: 'Called back, no answer' } })).status,
    ).toBe(201)
    expect((await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.admin, body: { status: 'IN_PROGRESS' } })).status).toBe(200)
    await dispatchUntil(
      () => receivedAt('/notes').length >= 1 && receivedAt('/updates').some((r) => r.body.data.needId === need.id),
      'the note and update deliveries',
    )
    expect(receivedAt('/notes').map((r) => r.type)).toEqual(['note.added'])
    expect(receivedAt('/updates').map((r) => r.type)).toEqual(['need.updated'])
    expect(receivedAt('/notes')[0]!.raw).not.toContain('Called back')
    expect(receivedAt('/notes')[0]!.signatureValid).toBe(true)
  })

  test('a refusal is tried again after the backoff with the same webhook-id; a redirect is not followed', async () => {
    const endpoint = await createEndpoint('/flaky', ['need.created'])
    receiver.answerWith((path, count) =>
      path === '/flaky' && count === 1 ? 503 : path === '/flaky' && count === 2 ? Response.redirect(receiver.url('/elsewhere'), 302) : 200,
    )
    try {
      await createNeed()
      await dispatchUntil(async () => (await deliveries(endpoint.id))[0]?.lastStatusCode === 503, 'the first try')
      const first = (await deliveries(endpoint.id))[0]!
      expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 })
      expect(new Date(first.nextAttemptAt!).getTime() - world.clock.now().getTime()).toBe(10_000)

      world.clock.advance(10_000)
      await dispatchUntil(async () => (await deliveries(endpoint.id))[0]?.lastStatusCode === 302, 'the second try')
      expect(receivedAt('/elsewhere')).toEqual([])
      world.clock.advance(60_000)
      await dispatchUntil(async () => (await deliveries(endpoint.id))[0]?.status === 'sent', 'the third try')
      expect((await deliveries(endpoint.id))[0]).toMatchObject({ attempts: 3, lastStatusCode: 200 })
      const tries = receivedAt('/flaky')
      expect(tries).toHaveLength(3)
      expect(new Set(tries.map((t) => t.id)).size).toBe(1)
      expect(tries.every((t) => t.signatureValid)).toBe(true)
    } finally {
      receiver.answerWith(() => 200)
    }
  })

  test('five deliveries failed for good in a row disable the endpoint; PUT enabled: true brings it back', async () => {
    const endpoint = await createEndpoint('/down', ['need.created'])
    receiver.answerWith((path) => (path === '/down' ? 500 : 200))
    try {
      for (let i = 0; i < 5; i++) await createNeed()
      // Hours pass: the access token expires meanwhile, so the use case is asked directly, then a new token.
      const listDeliveries = () => world.useCases.webhooks.listDeliveries.execute(world.admin, endpoint.id, { page: 1, limit: 25 })
      await dispatchUntil(async () => {
        world.clock.advance(6 * 3600_000)
        return (await listDeliveries()).items.filter((d) => d.status === 'failed').length === 5
      }, 'five failed deliveries')
      // The other tests run in any order: every token they use is issued again.
      Object.assign(tokens, {
        admin: await api.tokenFor(world, 'org_admin'),
        staff: await api.tokenFor(world, 'staff'),
        otherAdmin: await api.tokenFor(otherWorld, 'org_admin'),
      })
      expect((await deliveries(endpoint.id)).every((d) => d.attempts === 8 && d.lastStatusCode === 500)).toBe(true)
      const disabled = await api.call<Endpoint>('GET', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.admin })
      expect(disabled.body).toMatchObject({ enabled: false, consecutiveFailures: 5 })
      expect(disabled.body.disabledAt).toMatch(ISO_MS)

      const count = receivedAt('/down').length
      await createNeed()
      await api.server.container.get(DispatchOutbox).runOnce()
      expect(receivedAt('/down')).toHaveLength(count)

      const enabled = await api.call<Endpoint>('PUT', `${ENDPOINTS}/${endpoint.id}`, { token: tokens.admin, body: { enabled: true } })
      expect(enabled.body).toMatchObject({ enabled: true, consecutiveFailures: 0 })
      expect(enabled.body).not.toHaveProperty('disabledAt')
    } finally {
      receiver.answerWith(() => 200)
    }
  })
})
