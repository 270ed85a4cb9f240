import { describe, expect, test } from 'bun:test'
import { ProviderError } from '../../../src/application/ports/provider-error'
import { retryableSms } from '../sms-world'
import { freshWorldEachTest, interactionOf, ORG_NUMBER, PHONE, queue, SECOND, sms, world } from './dispatch-sms-support'

// docs/api/organization.md "SMS", never twice: a text whose worker died, or whose send got no answer, may have left
// already, so before it is tried again the provider is asked whether it has it.
freshWorldEachTest()

describe('DispatchOutbox, texts', () => {
  describe('a text whose worker died after claiming it', () => {
    /** A worker claims what is due, perhaps starts sending, and dies before it records anything. */
    const claimAndDie = () => world.dispatcher.claim()

    test('is left alone while the lease holds, and claimed again once it runs out', async () => {
      const { outboxId } = await queue()
      await claimAndDie()
      world.clock.advance(world.leaseMs - 1)
      expect(await world.dispatcher.claim()).toEqual([])
      expect(await world.dispatcher.runOnce()).toBe(0)
      world.clock.advance(1)
      expect(await world.dispatcher.runOnce()).toBe(1)
      expect((await world.outboxMessage(outboxId)).status).toBe('sent')
      expect(sms().attempts).toHaveLength(1)
    })

    test('is first looked up with the provider: when the provider has it, it is marked sent with that id and not sent again', async () => {
      const { interactionId, outboxId } = await queue('Your box is ready')
      await claimAndDie()
      sms().alreadyAccepted({ id: 'SMlost0000000000000000000000000000', from: ORG_NUMBER, to: PHONE, body: 'Your box is ready' })
      world.clock.advance(world.leaseMs)
      expect(await world.dispatcher.runOnce()).toBe(1)
      expect(sms().attempts).toEqual([])
      expect(sms().lookups).toEqual([{ from: ORG_NUMBER, to: PHONE, body: 'Your box is ready', since: expect.any(Date) }])
      expect(await interactionOf(interactionId)).toMatchObject({
        deliveryStatus: 'sent',
        providerMessageId: 'SMlost0000000000000000000000000000',
      })
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent', providerMessageId: 'SMlost0000000000000000000000000000' })
    })

    test('asks the provider about the time since the interrupted attempt began, not since the new claim', async () => {
      await queue()
      const claimedAt = world.clock.now()
      await claimAndDie()
      world.clock.advance(world.leaseMs)
      await world.dispatcher.runOnce()
      expect(sms().lookups).toHaveLength(1)
      expect(sms().lookups[0]!.since.getTime()).toBeLessThanOrEqual(claimedAt.getTime())
    })

    test('when the provider does not have it, it is sent, once', async () => {
      const { interactionId } = await queue()
      await claimAndDie()
      world.clock.advance(world.leaseMs)
      expect(await world.dispatcher.runOnce()).toBe(1)
      expect(sms().lookups).toHaveLength(1)
      expect(sms().attempts).toHaveLength(1)
      expect(await interactionOf(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: sms().accepted[0]!.id })
      world.clock.advance(world.leaseMs * 10)
      expect(await world.dispatcher.runOnce()).toBe(0)
      expect(sms().attempts).toHaveLength(1)
    })

    test('when the provider cannot be asked, the text is not sent blindly: it is retried still in doubt, and asked about first', async () => {
      const { interactionId, outboxId } = await queue('Your box is ready')
      await claimAndDie()
      sms().alreadyAccepted({ id: 'SMlost0000000000000000000000000000', from: ORG_NUMBER, to: PHONE, body: 'Your box is ready' })
      world.clock.advance(world.leaseMs)
      sms().failNextLookup(retryableSms('Could not reach Twilio: ETIMEDOUT'))
      expect(await world.dispatcher.runOnce()).toBe(1)
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'pending', attempts: 1 })
      expect((await world.outboxMessage(outboxId))!.inFlightSince).toBeDefined()
      world.clock.advance(2 * SECOND)
      expect(await world.dispatcher.runOnce()).toBe(1)
      expect(sms().lookups).toHaveLength(2)
      expect(sms().attempts).toEqual([])
      expect(await interactionOf(interactionId)).toMatchObject({
        deliveryStatus: 'sent',
        providerMessageId: 'SMlost0000000000000000000000000000',
      })
    })

    test('a send that got no answer (timeout) is retried in doubt: the provider is asked first, and what it took is not sent again', async () => {
      const { interactionId, outboxId } = await queue('Your box is ready')
      // The provider took the text, but the answer never came back.
      sms().failNext(new ProviderError('SMS provider error', 'Twilio did not answer: timed out', true, true))
      sms().alreadyAccepted({ id: 'SMtimeout00000000000000000000000000', from: ORG_NUMBER, to: PHONE, body: 'Your box is ready' })
      await world.dispatcher.runOnce()
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'pending', attempts: 1 })
      world.clock.advance(2 * SECOND)
      await world.dispatcher.runOnce()
      expect(sms().lookups).toHaveLength(1)
      expect(sms().attempts).toHaveLength(1)
      expect(await interactionOf(interactionId)).toMatchObject({
        deliveryStatus: 'sent',
        providerMessageId: 'SMtimeout00000000000000000000000000',
      })
    })

    test('a refusal with an answer (503) is retried without asking: the provider said it did not take it', async () => {
      await queue()
      sms().failNext(retryableSms('Twilio answered 503'))
      await world.dispatcher.runOnce()
      world.clock.advance(2 * SECOND)
      await world.dispatcher.runOnce()
      expect(sms().lookups).toHaveLength(0)
      expect(sms().attempts).toHaveLength(2)
    })

    test('when the provider cannot be asked and, asked later, does not have it, the text is sent once', async () => {
      const { interactionId } = await queue()
      await claimAndDie()
      world.clock.advance(world.leaseMs)
      sms().failNextLookup(new Error('socket hang up'))
      await world.dispatcher.runOnce()
      expect(sms().attempts).toEqual([])
      world.clock.advance(2 * SECOND)
      await world.dispatcher.runOnce()
      expect(sms().attempts).toHaveLength(1)
      expect((await interactionOf(interactionId)).deliveryStatus).toBe('sent')
    })

    test('an identical earlier text the provider has, already recorded on its own interaction, does not count: this one is sent', async () => {
      const first = await queue('Reminder: pickup today')
      await world.dispatcher.runOnce()
      world.clock.advance(SECOND)
      const second = await queue('Reminder: pickup today')
      await claimAndDie()
      world.clock.advance(world.leaseMs)
      expect(await world.dispatcher.runOnce()).toBe(1)
      expect(sms().attempts).toHaveLength(2)
      const [firstId, secondId] = sms().accepted.map((a) => a.id)
      expect((await interactionOf(first.interactionId)).providerMessageId).toBe(firstId!)
      expect(await interactionOf(second.interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: secondId! })
    })
  })
})
