import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PORTS, useCasesOf } from '../../../src/main/container'
import type { FixedClock } from '../../support/fixed-clock'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, ISO_MS, linksOf } from './helpers'

// docs/audit.md over real HTTP, on SQLite (and PostgreSQL with TEST_DATABASE=postgres).
interface Event {
  id: string
  memberId?: string
  action: string
  recordType: string
  recordId: string
  at: string
  requestId?: string
  fields?: string[]
}

let api: TestServer
let world: World
let admin: string
let staff: string
let adminId: string
let staffId: string

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  admin = await api.tokenFor(world, 'org_admin')
  staff = await api.tokenFor(world, 'staff')
  const [a, s] = await Promise.all(
    [admin, staff].map(async (token) => (await api.call<{ id: string }>('GET', '/api/profile', { token })).body.id),
  )
  adminId = a!
  staffId = s!
})

afterAll(async () => {
  await api?.stop()
})

const events = (query = '', token = admin) => api.call<Event[]>('GET', `/api/audit-events${query}`, { token })

async function aConstituent(requestId?: string) {
  const response = await api.call<{ id: string }>('POST', '/api/constituents', {
    token: admin,
    body: { firstName: 'Rosa', lastName: 'Marsh', phone: '+15035550101', addressStreet: '1 Elm St' },
    ...(requestId ? { headers: { 'x-request-id': requestId } } : {}),
  })
  expect(response.status).toBe(201)
  return response.body.id
}

describe('GET /api/audit-events', () => {
  test("a write is recorded with who, what, which record, when and the request's id", async () => {
    const id = await aConstituent('audit-create-1')
    const response = await events(`?recordType=constituent&recordId=${id}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual([
      {
        id: expect.any(String),
        memberId: adminId,
        action: 'create',
        recordType: 'constituent',
        recordId: id,
        at: expect.stringMatching(ISO_MS),
        requestId: 'audit-create-1',
      },
    ])
  })

  test('an update names the fields it changed and never their values', async () => {
    const id = await aConstituent()
    const update = await api.call('PUT', `/api/constituents/${id}`, { token: admin, body: { addressStreet: '22 Secret Lane' } })
    expect(update.status).toBe(200)
    const [event] = (await events(`?recordType=constituent&recordId=${id}&action=update`)).body
    expect(event).toMatchObject({ memberId: adminId, fields: ['addressStreet'] })
    expect(JSON.stringify((await events('?limit=100')).body)).not.toContain('Secret Lane')
  })

  test('reading a constituent by id records the personal details seen; a caller shown none is not recorded', async () => {
    const id = await aConstituent()
    expect(
      (await api.call('GET', `/api/constituents/${id}`, { token: staff, headers: { 'x-request-id': 'audit-read-staff' } })).status,
    ).toBe(200)
    expect(
      (await api.call('GET', `/api/constituents/${id}`, { token: admin, headers: { 'x-request-id': 'audit-read-admin' } })).status,
    ).toBe(200)
    const reads = (await events(`?recordType=constituent&recordId=${id}&action=read`)).body
    expect(reads).toEqual([
      expect.objectContaining({ memberId: adminId, requestId: 'audit-read-admin', fields: ['phone', 'addressStreet'] }),
    ])
  })

  test('a search records each constituent it showed, all under the one request', async () => {
    const ids = [await aConstituent(), await aConstituent()]
    const search = await api.call<Array<{ id: string }>>('GET', '/api/constituents?query=Rosa%20Marsh&limit=100', {
      token: admin,
      headers: { 'x-request-id': 'audit-search' },
    })
    expect(search.status).toBe(200)
    const reads = (await events('?action=read&limit=100')).body.filter((e) => e.requestId === 'audit-search')
    expect(reads.map((e) => e.recordId).sort()).toEqual(search.body.map((c) => c.id).sort())
    expect(reads.map((e) => e.recordId)).toEqual(expect.arrayContaining(ids))
  })

  test('a login is recorded; a write refused (409) leaves no event', async () => {
    expect((await events(`?memberId=${staffId}&action=login`)).body).toEqual([
      expect.objectContaining({ recordType: 'member', recordId: staffId }),
    ])
    const other = await world.otherOrganization()
    const { slug } = (
      await api.call<{ slug: string }>('GET', '/api/organizations/settings', { token: await api.tokenFor(other, 'org_admin') })
    ).body
    const taken = await api.call('PUT', '/api/organizations/settings', {
      token: admin,
      body: { name: 'Renamed', slug },
      headers: { 'x-request-id': 'audit-conflict' },
    })
    expect(taken.status).toBe(409)
    expect((await events('?recordType=organization&limit=100')).body.filter((e) => e.requestId === 'audit-conflict')).toEqual([])
  })

  test('filters by member, action and time; newest first; paged with X-Total-Count and Link', async () => {
    await aConstituent()
    await aConstituent()
    const all = await events(`?memberId=${adminId}&action=create&limit=100`)
    expect(all.body.length).toBeGreaterThanOrEqual(2)
    expect(all.body.every((e) => e.memberId === adminId && e.action === 'create')).toBe(true)
    const times = all.body.map((e) => e.at)
    expect([...times].sort().reverse()).toEqual(times)

    const page = await events(`?memberId=${adminId}&action=create&limit=1&page=2`)
    expect(page.headers.get('x-total-count')).toBe(String(all.body.length))
    expect(page.body).toEqual([all.body[1]!])
    expect(linksOf(page).prev).toBeDefined()

    const now = (api.server.container.get(PORTS.clock) as FixedClock).now()
    expect((await events(`?since=${new Date(now.getTime() + 1000).toISOString()}`)).body).toEqual([])
    expect((await events(`?until=${now.toISOString()}`)).body).toEqual([])
    expect((await events(`?since=${now.toISOString()}&until=${new Date(now.getTime() + 1).toISOString()}&limit=1`)).body).toHaveLength(1)
  })

  test('bad filters are 400: a recordId without recordType, an unknown action, a time that is none, until before since', async () => {
    expectBadRequest(await events(`?recordId=${adminId}`), '/recordType')
    expectBadRequest(await events('?action=destroy'))
    expectBadRequest(await events('?since=yesterday'))
    expectBadRequest(await events('?since=2026-01-02T00:00:00.000Z&until=2026-01-01T00:00:00.000Z'), '/until')
  })

  test('only an org_admin reads the trail, and only its own organization’s', async () => {
    expectProblem(await events('', staff), 403, 'Forbidden')
    const other = await world.otherOrganization()
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const id = await aConstituent()
    expect((await events(`?recordType=constituent&recordId=${id}`, otherAdmin)).body).toEqual([])
    expect((await events('?limit=100', otherAdmin)).body.every((e) => e.memberId !== adminId)).toBe(true)
  })

  test('no route changes or deletes an event', async () => {
    const [event] = (await events('?limit=1')).body
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect((await api.call(method, `/api/audit-events/${event!.id}`, { token: admin, body: {} })).status).toBe(404)
      expect([404, 405]).toContain((await api.call(method, '/api/audit-events', { token: admin, body: {} })).status)
    }
  })
})

describe('retention', () => {
  test('auditRetentionDays is an organization setting, bounded', async () => {
    const set = await api.call('PUT', '/api/organizations/settings', { token: admin, body: { auditRetentionDays: 30 } })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ auditRetentionDays: 30 })
    expectBadRequest(
      await api.call('PUT', '/api/organizations/settings', { token: admin, body: { auditRetentionDays: 1 } }),
      '/auditRetentionDays',
    )
    const [event] = (await events('?recordType=organization&action=update')).body
    expect(event).toMatchObject({ fields: ['auditRetentionDays'] })
  })

  test('the purge deletes the events past the retention, and only those', async () => {
    const other = await world.otherOrganization()
    expect(
      (
        await api.call('PUT', '/api/organizations/settings', {
          token: await api.tokenFor(other, 'org_admin'),
          body: { auditRetentionDays: 7 },
        })
      ).status,
    ).toBe(200)
    const count = async (organizationId: string) =>
      (await world.repositories.auditEvents.list(organizationId, {}, { page: 1, limit: 1 })).total
    expect(await count(other.organizationId)).toBeGreaterThan(0)
    const mine = await count(world.organizationId)

    const clock = api.server.container.get(PORTS.clock) as FixedClock
    const eightDays = 8 * 24 * 60 * 60 * 1000
    clock.advance(eightDays)
    try {
      // A login eight days on: an event inside the retention, kept.
      const fresh = await api.tokenFor(other, 'org_admin')
      expect(await useCasesOf(api.server.container).operations.purgeAuditEvents.execute()).toBeGreaterThan(0)
      expect((await events('?limit=100', fresh)).body.map((e) => e.action)).toEqual(['login'])
    } finally {
      // The other tests of the file share the clock (and their tokens its time).
      clock.advance(-eightDays)
    }
    // This file's organization keeps 30 days: nothing of it went.
    expect(await count(world.organizationId)).toBe(mine)
  })
})
