import { beforeEach } from 'bun:test'
import type { Need } from '../../../src/domain/needs/need'
import { createSmsWorld, type SmsWorld } from '../sms-world'

// What the tests of the worker's texts share (dispatch-sms-sending, dispatch-sms-concurrency,
// dispatch-sms-dead-worker and dispatch-sms-fencing.test.ts): before each test, an organization with a number
// of its own and a need of a constituent with a phone, so that every test starts with nothing queued.
// Each file calls `freshWorldEachTest()`; its tests reach the world and the need through the bindings below.

export const SECOND = 1000
export const ORG_NUMBER = '+15557770000'
export const PHONE = '+15550001111'

export let world: SmsWorld
let need: Need

/** Before each test of the file: a fresh organization with its number, and the need the texts are sent on. */
export function freshWorldEachTest(): void {
  beforeEach(async () => {
    world = await createSmsWorld()
    await world.configureOrganization({ phoneNumber: ORG_NUMBER })
    need = await world.needFor((await world.constituent({ firstName: 'Ana', phone: PHONE })).id)
  })
}

export const sms = () => world.sms
export const queue = (body?: string) => world.queue(need.id, body)
export const interactionOf = async (id: string) => (await world.interaction(id))!
