import { describe, expect, test } from 'bun:test'
import { TooManyRequestsError } from '../../../src/domain/errors'
import { failureOf } from '../failure-of'
import { createSmsWorld } from '../sms-world'

// docs/api/organization.md "SMS": texts per member and per number within the hour, counted in the store.
const MINUTE = 60_000

describe('SendSms limits', () => {
  test('a member past SMS_PER_MEMBER_PER_HOUR is refused until its oldest text is an hour old; nothing is recorded, others still send', async () => {
    const world = await createSmsWorld({ env: { SMS_PER_MEMBER_PER_HOUR: '2' } })
    const needs = []
    for (const phone of ['+15550001001', '+15550001002', '+15550001003'])
      needs.push(await world.needFor((await world.constituent({ firstName: 'A', phone })).id))
    const [first, second, third] = needs
    await world.send(first!.id)
    world.clock.advance(10 * MINUTE)
    await world.send(second!.id)

    const refused = await failureOf(world.send(third!.id), TooManyRequestsError)
    expect(refused.retryAfterSeconds).toBe(50 * 60)
    expect(await world.interactionsOfNeed(third!.id)).toEqual([])
    const colleague = await world.member('staff', { profiles: ['sms_communicator'] })
    expect((await world.send(third!.id, 'hello', colleague)).interactionId).toBeString()

    world.clock.advance(50 * MINUTE)
    expect((await world.send(third!.id)).interactionId).toBeString()
  })

  test('a number past SMS_PER_RECIPIENT_PER_HOUR is refused whoever sends, on any need of anyone with it; other numbers are texted', async () => {
    const world = await createSmsWorld({ env: { SMS_PER_RECIPIENT_PER_HOUR: '2' } })
    const shared = '+15550002000'
    const parent = await world.needFor((await world.constituent({ firstName: 'Parent', phone: shared })).id)
    const child = await world.needFor((await world.constituent({ firstName: 'Child', phone: shared })).id)
    const neighbour = await world.needFor((await world.constituent({ firstName: 'Neighbour', phone: '+15550002001' })).id)
    await world.send(parent.id)
    world.clock.advance(MINUTE)
    await world.send(child.id)

    const colleague = await world.member('staff', { profiles: ['sms_communicator'] })
    for (const [need, actor] of [
      [parent, world.admin],
      [child, colleague],
    ] as const) {
      const refused = await failureOf(world.send(need.id, 'again', actor), TooManyRequestsError)
      expect(refused.retryAfterSeconds).toBe(59 * 60)
    }
    expect(await world.interactionsOfNeed(child.id)).toHaveLength(1)
    expect((await world.send(neighbour.id)).interactionId).toBeString()
    world.clock.advance(59 * MINUTE)
    expect((await world.send(child.id)).interactionId).toBeString()
  })
})
