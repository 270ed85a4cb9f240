import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { LiveStreams, type LiveStreamSink } from '../../../src/application/live/live-streams'
import type { Actor } from '../../../src/domain/auth/actor'
import { LIVE_REPLAY_WINDOW_MS, type LiveEvent } from '../../../src/domain/webhooks/live-event'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { until } from '../sms-world'

// docs/events.md "The live stream", on the in-memory adapters: the heartbeat, the token's expiry, what a stream
// that comes back is sent, and a member whose rights change reading with its new rights.
const HEARTBEAT_MS = 30

let world: World
let streams: LiveStreams
beforeEach(async () => {
  world = await createWorld()
  const { container } = world
  const feed = container.get(PORTS.persistence).liveEventFeed()
  streams = new LiveStreams(
    world.repositories,
    feed,
    container.get(PORTS.accessTokens),
    world.clock,
    container.get(PORTS.logger),
    HEARTBEAT_MS,
  )
})
afterEach(() => streams.close())

type Received = LiveEvent | 'reset' | 'heartbeat' | 'end'

function recorder() {
  const got: Received[] = []
  const sink: LiveStreamSink = {
    event: (event) => void got.push(event),
    reset: () => void got.push('reset'),
    heartbeat: () => void got.push('heartbeat'),
    end: () => void got.push('end'),
  }
  const events = () => got.filter((r): r is LiveEvent => typeof r === 'object')
  return { got, sink, events }
}

async function tokenOf(actor: Actor): Promise<string> {
  const passwordHash = await world.container.get(PORTS.passwords).hash(TEST_PASSWORD)
  const member = (await world.repositories.members.findById(actor.organizationId, actor.memberId))!
  await world.repositories.members.update({ ...member, passwordHash })
  return (await world.useCases.auth.login.execute({ email: member.email, password: TEST_PASSWORD })).accessToken
}

const newNeed = async (partnerId = world.defaultPartner.id) => (await world.useCases.needs.create.execute(world.admin, { partnerId })).id
const needIdsOf = (events: LiveEvent[]) => events.filter((e) => e.type === 'need.created').map((e) => e.data.needId)

describe('LiveStreams', () => {
  test('a comment every heartbeat keeps a quiet stream open', async () => {
    const { got, sink } = recorder()
    await streams.open(await tokenOf(world.admin), undefined, sink)
    await until(() => got.filter((r) => r === 'heartbeat').length >= 2, 'two heartbeats')
  })

  test('ends when its access token expires, not before', async () => {
    const token = await tokenOf(world.admin)
    const lifetimeMs = world.container.get(PORTS.accessTokens).lifetimeSeconds * 1000
    world.clock.advance(lifetimeMs - 50)
    const { got, sink } = recorder()
    await streams.open(token, undefined, sink)
    expect(got).not.toContain('end')
    await until(() => got.includes('end'), 'the end at expiry')
  })

  test('coming back within the window, a stream gets what it missed in order; once what followed its id was purged, reset', async () => {
    const token = await tokenOf(world.admin)
    const first = recorder()
    const close = await streams.open(token, undefined, first.sink)
    const seen = await newNeed()
    await until(() => needIdsOf(first.events()).includes(seen), 'the first need')
    close()
    const lastId = String(first.events().at(-1)!.id)
    const missed = [await newNeed(), await newNeed()]

    const back = recorder()
    await streams.open(token, lastId, back.sink)
    expect(needIdsOf(back.events())).toEqual(missed)

    world.clock.advance(LIVE_REPLAY_WINDOW_MS + 1)
    await newNeed()
    await world.useCases.operations.purgeLiveEvents.execute()
    const late = recorder()
    await streams.open(await tokenOf(world.admin), lastId, late.sink)
    expect(late.got[0]).toBe('reset')
    // A stream that had the newest event missed nothing, however long ago: no reset.
    const quiet = recorder()
    const newest = (await world.repositories.liveEvents.bounds())!.highest
    await streams.open(await tokenOf(world.admin), String(newest), quiet.sink)
    expect(quiet.got).toEqual([])
  })

  test('an event on its way to the streams while a stream comes back is sent to it once: by its replay, not again', async () => {
    // The feed's delivery of the next event waits on its need's read; the stream that comes back meanwhile replays it.
    const needs = world.repositories.needs
    const reads = { held: false, reached: Promise.withResolvers<void>(), release: Promise.withResolvers<void>() }
    const findById = needs.findById.bind(needs)
    needs.findById = async (organizationId, id) => {
      if (reads.held) {
        reads.held = false
        reads.reached.resolve()
        await reads.release.promise
      }
      return findById(organizationId, id)
    }
    const token = await tokenOf(world.admin)
    const first = recorder()
    const close = await streams.open(token, undefined, first.sink)
    const seen = await newNeed()
    await until(() => needIdsOf(first.events()).includes(seen), 'the first need')
    const lastId = String(first.events().at(-1)!.id)
    close()
    const keepFeeding = recorder()
    await streams.open(token, undefined, keepFeeding.sink)

    reads.held = true
    const missed = await newNeed()
    await reads.reached.promise
    const back = recorder()
    await streams.open(token, lastId, back.sink)
    reads.release.resolve()
    await until(() => needIdsOf(keepFeeding.events()).includes(missed), 'the delivery of the need')
    expect(needIdsOf(back.events())).toEqual([missed])
  })

  test('a member moved to a partner role reads with its new rights at once: only its partner’s needs', async () => {
    const partner = await world.partner()
    const staff = await world.member('staff')
    const { sink, events, got } = recorder()
    await streams.open(await tokenOf(staff), undefined, sink)
    await world.useCases.members.update.execute(world.admin, staff.memberId, { role: 'partner_agent', partnerId: partner.id })
    const others = await newNeed()
    const ours = await newNeed(partner.id)
    await until(() => needIdsOf(events()).includes(ours), 'the need of its partner')
    expect(needIdsOf(events())).not.toContain(others)
    expect(got).not.toContain('end')
  })

  test('closing ends every stream', async () => {
    const { got, sink } = recorder()
    await streams.open(await tokenOf(world.admin), undefined, sink)
    await streams.close()
    expect(got.filter((r) => r !== 'heartbeat')).toEqual(['end'])
  })
})
