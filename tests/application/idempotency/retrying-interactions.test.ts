import { beforeEach, describe, expect, test } from 'bun:test'
import { SendSms } from '../../../src/application/sms/send-sms'
import { IdempotencyKeyReusedError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { failureOf } from '../failure-of'
import { createSmsWorld, type SmsWorld } from '../sms-world'

// docs/api/conventions.md "Retrying a create": a note added, or a text sent, again with the same Idempotency-Key is
// the one the first request made.

const KEY = 'c5f0e2a4-8d7b-4f61-a0a3-7e9f4b2d1c38'

let world: SmsWorld
let need: Need
beforeEach(async () => {
  world = await createSmsWorld({ env: { SMS_PER_MEMBER_PER_HOUR: '1' } })
  const ana = await world.constituent({ firstName: 'Ana', phone: '+15550001111' })
  need = await world.needFor(ana.id)
})

const addNote = (content = 'Called back', needId = need.id) => world.useCases.needs.addNote.execute(world.admin, needId, content, KEY)
const sendSms = (body = 'Your box is ready') => world.container.get(SendSms).execute(world.admin, need.id, body, KEY)

describe('AddNote with an Idempotency-Key', () => {
  test('a retry adds nothing and answers the note the first added', async () => {
    const first = await addNote()
    world.clock.advance(60_000)
    expect(await addNote()).toEqual(first)
    expect((await world.interactionsOfNeed(need.id)).map((note) => note.id)).toEqual([first.id])
  })

  test('the same key for another note, or on another need, is refused', async () => {
    await addNote()
    await failureOf(addNote('Called again'), IdempotencyKeyReusedError)
    const other = await world.needFor(undefined)
    await failureOf(addNote('Called back', other.id), IdempotencyKeyReusedError)
    expect(await world.interactionsOfNeed(other.id)).toEqual([])
  })

  test('the note is answered as the caller reads it now: a confidential need’s content only with the permission', async () => {
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })
    const first = await world.useCases.needs.addNote.execute(volunteer, need.id, 'Left a message', KEY)
    expect(first.content).toBe('Left a message')
    await world.useCases.needs.update.execute(world.admin, need.id, { isConfidential: true })
    const retried = await world.useCases.needs.addNote.execute(volunteer, need.id, 'Left a message', KEY)
    expect(retried.id).toBe(first.id)
    expect(retried).not.toHaveProperty('content')
  })
})

describe('SendSms with an Idempotency-Key', () => {
  test('a retry queues nothing more and answers the text the first queued, even past the send limit it now fills', async () => {
    const first = await sendSms()
    world.clock.advance(60_000)
    expect(await sendSms()).toEqual(first)
    expect((await world.interactionsOfNeed(need.id)).map((text) => text.id)).toEqual([first.interactionId])
    expect(await world.dispatcher.claim()).toHaveLength(1)
  })

  test('the same key with another message is refused and queues nothing', async () => {
    await sendSms()
    await failureOf(sendSms('Another message'), IdempotencyKeyReusedError)
    expect(await world.interactionsOfNeed(need.id)).toHaveLength(1)
  })
})
