import { describe, expect, test } from 'bun:test'
import { MAX_ATTEMPTS } from '../../../src/domain/messaging/outbox'
import { refusedSms, retryableSms, STATUS_CALLBACK_URL } from '../sms-world'
import { freshWorldEachTest, interactionOf, ORG_NUMBER, PHONE, queue, SECOND, sms, world } from './dispatch-sms-support'

// docs/api/organization.md "SMS": the worker sends a queued text once, from the organization's number; what the provider
// may take later is tried again with a growing wait, what it refuses fails at once, and the interaction
// follows the text.
freshWorldEachTest()

describe('DispatchOutbox, texts', () => {
  test("sends a queued text once, from the organization's number with the status callback, and marks its interaction sent", async () => {
    const { interactionId, outboxId } = await queue('Your box is ready')
    expect(await world.dispatcher.runOnce()).toBe(1)
    expect(sms().attempts).toEqual([
      {
        organizationId: world.organizationId,
        from: ORG_NUMBER,
        to: PHONE,
        body: 'Your box is ready',
        statusCallbackUrl: STATUS_CALLBACK_URL,
      },
    ])
    const providerMessageId = sms().accepted[0]!.id
    expect(await interactionOf(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId })
    expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent', attempts: 0, providerMessageId, sentAt: world.clock.now() })
    world.clock.advance(world.leaseMs * 10)
    expect(await world.dispatcher.runOnce()).toBe(0)
    expect(sms().attempts).toHaveLength(1)
  })

  test('two workers running at once send it once: only one of them claims it', async () => {
    await queue()
    expect((await Promise.all([world.dispatcher.runOnce(), world.dispatcher.runOnce()])).sort()).toEqual([0, 1])
    expect(sms().attempts).toHaveLength(1)
  })

  test('a fresh claim does not ask the provider whether the text already left', async () => {
    await queue()
    await world.dispatcher.runOnce()
    expect(sms().lookups).toEqual([])
  })

  describe('a retryable failure', () => {
    for (const [kind, reason] of [
      ['a network error', 'Could not reach Twilio: ECONNRESET'],
      ['429', 'Twilio answered 429: Too Many Requests'],
      ['a 5xx', 'Twilio answered 503: Service Unavailable'],
    ] as const) {
      test(`(${kind}) puts the text back with its reason, due 2 s later; the interaction stays queued until it is sent`, async () => {
        const { interactionId, outboxId } = await queue()
        sms().failNext(retryableSms(reason))
        expect(await world.dispatcher.runOnce()).toBe(1)
        expect(await world.outboxMessage(outboxId)).toMatchObject({
          status: 'pending',
          attempts: 1,
          lastError: reason,
          nextAttemptAt: new Date(world.clock.now().getTime() + 2 * SECOND),
        })
        expect((await interactionOf(interactionId)).deliveryStatus).toBe('queued')
        world.clock.advance(2 * SECOND - 1)
        expect(await world.dispatcher.runOnce()).toBe(0)
        world.clock.advance(1)
        expect(await world.dispatcher.runOnce()).toBe(1)
        expect(await interactionOf(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: sms().accepted[0]!.id })
        expect(sms().attempts).toHaveLength(2)
      })
    }

    test('backs off 2, 4, 8 and 16 s; the fifth try may still succeed', async () => {
      const { interactionId, outboxId } = await queue()
      sms().failNext(retryableSms(), 4)
      await world.dispatcher.runOnce()
      for (const [failures, delay] of [
        [1, 2],
        [2, 4],
        [3, 8],
        [4, 16],
      ] as const) {
        expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'pending', attempts: failures })
        world.clock.advance(delay * SECOND - 1)
        expect(await world.dispatcher.runOnce()).toBe(0)
        world.clock.advance(1)
        expect(await world.dispatcher.runOnce()).toBe(1)
      }
      expect((await world.outboxMessage(outboxId)).status).toBe('sent')
      expect((await interactionOf(interactionId)).deliveryStatus).toBe('sent')
      expect(sms().attempts).toHaveLength(5)
      expect(sms().accepted).toHaveLength(1)
    })

    test(`gives up after ${MAX_ATTEMPTS} tries: the text and its interaction are failed, and it is never tried again`, async () => {
      const { interactionId, outboxId } = await queue()
      sms().failNext(retryableSms('Twilio answered 500'), 100)
      for (let i = 0; i < 10; i++) {
        await world.dispatcher.runOnce()
        world.clock.advance(60 * SECOND)
      }
      expect(sms().attempts).toHaveLength(5)
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'failed', attempts: 5, lastError: 'Twilio answered 500' })
      const interaction = await interactionOf(interactionId)
      expect(interaction.deliveryStatus).toBe('failed')
      expect(interaction.providerMessageId).toBeUndefined()
    })
  })

  test('a refusal (4xx other than 429) fails the text and its interaction at once, without a retry', async () => {
    const { interactionId, outboxId } = await queue()
    sms().failNext(refusedSms("Twilio answered 400: The 'To' number is not a valid phone number"))
    expect(await world.dispatcher.runOnce()).toBe(1)
    expect(await world.outboxMessage(outboxId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: "Twilio answered 400: The 'To' number is not a valid phone number",
    })
    expect((await interactionOf(interactionId)).deliveryStatus).toBe('failed')
    world.clock.advance(world.leaseMs * 10)
    expect(await world.dispatcher.runOnce()).toBe(0)
    expect(sms().attempts).toHaveLength(1)
  })
})
