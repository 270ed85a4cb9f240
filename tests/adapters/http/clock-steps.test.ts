import { afterEach, expect, test } from 'bun:test'
import { SystemClock } from '../../../src/adapters/system/system-clock'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { FixedClock } from '../../support/fixed-clock'
import { startTestServer, type TestServer } from '../../support/http'
import { startWebhookReceiver } from '../../support/webhook-receiver'
import { waitFor } from '../../process/cli-process'

// The machine's wall clock stepped under a running service (an NTP correction, a resumed virtual machine),
// on SQLite or PostgreSQL (TEST_DATABASE): the service's own clock (SystemClock) reads it once and then
// counts elapsed time, so leases and the order of lists stay right (docs/faults.md "Clock steps").

/** A machine whose wall clock the test steps; its monotonic clock moves only when time passes. */
function steppedMachine() {
  const wall = new FixedClock(new Date().toISOString())
  let elapsed = 0
  return {
    clock: new SystemClock(
      () => wall.now().getTime(),
      () => elapsed,
    ),
    pass(ms: number) {
      wall.advance(ms)
      elapsed += ms
    },
    step(ms: number) {
      wall.advance(ms)
    },
  }
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function serverOn(machine: ReturnType<typeof steppedMachine>): Promise<{ api: TestServer; token: string }> {
  const api = await startTestServer({ SERVE_RUNS_WORKER: 'false' }, { clock: machine.clock })
  cleanups.push(() => api.stop())
  return { api, token: await api.tokenFor(api.world, 'org_admin') }
}

test('the wall clock steps back an hour: a need created after it is still first in the newest-first list', async () => {
  const machine = steppedMachine()
  const { api, token } = await serverOn(machine)
  const create = async () =>
    (await api.call<{ id: string }>('POST', '/api/needs', { token, body: { partnerId: api.world.defaultPartner.id } })).body.id
  const earlier = await create()
  machine.pass(1_000)
  machine.step(-60 * 60_000)
  machine.pass(1_000)
  const later = await create()

  const list = await api.call<Array<{ id: string }>>('GET', '/api/needs', { token })
  expect(list.status).toBe(200)
  expect(list.body.map((n) => n.id)).toEqual([later, earlier])
})

test('the wall clock steps five minutes forward while a webhook is being posted: it is not claimed and posted again', async () => {
  const machine = steppedMachine()
  const { api, token } = await serverOn(machine)
  const receiver = startWebhookReceiver({ delayMs: 1_000 })
  cleanups.push(() => receiver.stop())
  const endpoint = await api.call<{ id: string; secret: string }>('POST', '/api/webhook-endpoints', {
    token,
    body: { url: receiver.url('/hook'), events: ['need.created'] },
  })
  expect(endpoint.status).toBe(201)
  receiver.secretFor('/hook', endpoint.body.secret)
  expect((await api.call('POST', '/api/needs', { token, body: { partnerId: api.world.defaultPartner.id } })).status).toBe(201)

  const dispatch = api.server.container.get(DispatchOutbox)
  const first = dispatch.runOnce()
  expect(await waitFor(() => receiver.state.inFlight === 1, 10_000)).toBe(true)
  // Past the lease (OUTBOX_LEASE_MS, 60 s) by the wall clock, a second after the claim by elapsed time.
  machine.step(5 * 60_000)
  machine.pass(1_000)
  expect(await dispatch.runOnce()).toBe(0)
  expect(await first).toBe(1)

  expect(receiver.received).toHaveLength(1)
  expect(receiver.state.maxInFlight).toBe(1)
  const deliveries = await api.call<Array<{ status: string; attempts: number }>>(
    'GET',
    `/api/webhook-endpoints/${endpoint.body.id}/deliveries`,
    { token },
  )
  expect(deliveries.body).toMatchObject([{ status: 'sent', attempts: 1 }])
  expect(api.logs.filter((line) => line.includes('outcome came after the claim lapsed'))).toEqual([])
})
