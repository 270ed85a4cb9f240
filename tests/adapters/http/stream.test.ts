import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openEventStream, type EventStreamClient } from '../../support/event-stream'
import { startTestServer, type TestServer } from '../../support/http'
import { TEST_PASSWORD, type World } from '../../support/world'
import { expectProblem } from './helpers'

// docs/events.md "The live stream" over real HTTP, on SQLite or PostgreSQL (TEST_DATABASE): what reaches a
// stream is only its organization's and only what its member may read; a stream ends with the member's access.
// Waits are up to 10 s (next's default): the promise is an event within a second, a busy machine takes longer.
let api: TestServer
let world: World
let otherWorld: World
const streams: EventStreamClient[] = []

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  otherWorld = await world.otherOrganization()
})
afterAll(async () => {
  for (const stream of streams) stream.close()
  await api.stop()
})

async function open(token: string, lastEventId?: string) {
  const stream = await openEventStream(api.url, token, lastEventId)
  streams.push(stream)
  expect(stream.status).toBe(200)
  return stream
}

async function createNeed(token: string, partnerId: string): Promise<string> {
  const response = await api.call<{ id: string }>('POST', '/api/needs', { token, body: { partnerId } })
  expect(response.status).toBe(201)
  return response.body.id
}

const about = (needId: string) => (e: { data?: unknown }) => (e.data as { needId?: string } | undefined)?.needId === needId

describe('GET /api/stream', () => {
  test('answers 401 without a token, and text/event-stream to a member', async () => {
    expectProblem(await api.call('GET', '/api/stream'), 401, 'Unauthorized')
    const response = await api.call('GET', '/api/stream', { token: await api.tokenFor(world, 'volunteer') })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/event-stream')
  })

  test('a public request reaches the open stream as need.created, with its id and an event id; another organization hears nothing', async () => {
    const [admin, otherAdmin] = await Promise.all([api.tokenFor(world, 'org_admin'), api.tokenFor(otherWorld, 'org_admin')])
    const [mine, theirs] = await Promise.all([open(admin), open(otherAdmin)])
    const slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
    const created = await api.call<{ id: string }>('POST', '/api/needs/public', {
      body: { organizationSlug: slug, description: 'food for two' },
    })
    expect(created.status).toBe(201)

    const event = await mine.next((e) => e.event === 'need.created')
    expect(event.data).toEqual({ needId: expect.any(String) })
    expect(Number(event.id)).toBeGreaterThan(0)
    // The other organization's own event, later, reaches its stream alone: nothing of ours came before it.
    const theirNeed = await createNeed(otherAdmin, otherWorld.defaultPartner.id)
    await theirs.next(about(theirNeed))
    expect(theirs.received.filter((e) => e.event)).toEqual([
      expect.objectContaining({ event: 'need.created', data: { needId: theirNeed } }),
    ])
    expect(mine.received.some(about(theirNeed))).toBe(false)
  })

  test("a partner role hears of its partner's needs only; constituents' events reach only who may read constituents", async () => {
    const [partnerA, partnerB] = await Promise.all([world.partner(), world.partner()])
    const [agentA, volunteerA, staff] = await Promise.all([
      api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id }),
      api.tokenFor(world, 'volunteer', { partnerId: partnerA.id }),
      api.tokenFor(world, 'staff'),
    ])
    const [agentStream, volunteerStream, staffStream] = await Promise.all([open(agentA), open(volunteerA), open(staff)])
    const needOfB = await createNeed(staff, partnerB.id)
    const needOfA = await createNeed(staff, partnerA.id)
    const constituent = await api.call<{ id: string }>('POST', '/api/constituents', {
      token: staff,
      body: { firstName: 'Rosa', lastName: 'Marsh' },
    })
    expect(constituent.status).toBe(201)

    await staffStream.next((e) => e.event === 'constituent.created')
    await Promise.all([agentStream.next(about(needOfA)), volunteerStream.next(about(needOfA))])
    // Events arrive in order: by the time each stream had the later need of A, the need of B had passed it by.
    await agentStream.next((e) => e.event === 'constituent.created')
    for (const stream of [agentStream, volunteerStream]) expect(stream.received.some(about(needOfB))).toBe(false)
    expect(volunteerStream.received.some((e) => e.event === 'constituent.created')).toBe(false)
    expect(staffStream.received.some(about(needOfB))).toBe(true)
  })

  test('a stream that comes back with Last-Event-ID gets what it missed, in order; an id no longer kept gets reset', async () => {
    const admin = await api.tokenFor(world, 'org_admin')
    const first = await open(admin)
    const seen = await createNeed(admin, world.defaultPartner.id)
    const lastId = (await first.next(about(seen))).id!
    first.close()
    const missed = [await createNeed(admin, world.defaultPartner.id), await createNeed(admin, world.defaultPartner.id)]

    const again = await open(admin, lastId)
    await again.next(about(missed[1]!))
    const needIds = again.received.filter((e) => e.event === 'need.created').map((e) => (e.data as { needId: string }).needId)
    expect(needIds).toEqual(missed)

    const lost = await open(admin, '99999999999')
    await lost.next((e) => e.event === 'reset')
  })

  test('ends when the member is deactivated, and at logout', async () => {
    const admin = await api.tokenFor(world, 'org_admin')
    const staffToken = await api.tokenFor(world, 'staff')
    const staff = (await api.call<{ id: string }>('GET', '/api/profile', { token: staffToken })).body
    const deactivated = await open(staffToken)
    expect((await api.call('DELETE', `/api/members/${staff.id}`, { token: admin })).status).toBe(204)
    await deactivated.ended

    const { email } = (await api.call<{ email: string }>('GET', '/api/profile', { token: await api.tokenFor(world, 'staff') })).body
    const slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
    const pair = (await api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD, organizationSlug: slug } })).body as {
      accessToken: string
      refreshToken: string
    }
    const loggedOut = await open(pair.accessToken)
    expect(
      (await api.call('POST', '/api/auth/logout', { token: pair.accessToken, body: { refreshToken: pair.refreshToken } })).status,
    ).toBe(204)
    await loggedOut.ended
  })
})
