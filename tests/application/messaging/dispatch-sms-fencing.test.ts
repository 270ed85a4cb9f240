import { describe, expect, test } from 'bun:test'
import { refusedSms, retryableSms, until } from '../sms-world'
import { freshWorldEachTest, interactionOf, queue, sms, world } from './dispatch-sms-support'

// docs/api/organization.md "SMS": outcomes are fenced by the claim, so a worker that outlived its claim cannot overwrite
// what another worker holding the text recorded.
freshWorldEachTest()

describe('DispatchOutbox, texts', () => {
  describe('an outcome that comes after the claim lapsed (fencing)', () => {
    /** Worker A claims the text and its send hangs; the lease runs out. */
    async function hangingWorker(): Promise<{ late: Promise<void> }> {
      sms().hold()
      const [message] = await world.dispatcher.claim()
      const late = world.dispatcher.deliver(message!)
      await until(() => sms().waiting === 1, "worker A's send")
      world.clock.advance(world.leaseMs)
      return { late }
    }

    test('a late success is ignored once another worker claimed the text again and recorded its own', async () => {
      const { interactionId, outboxId } = await queue()
      const { late } = await hangingWorker()
      sms().letThrough()
      expect(await world.dispatcher.runOnce()).toBe(1)
      const theirs = sms().accepted[0]!.id
      expect(await interactionOf(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: theirs })
      sms().release()
      await late
      expect(sms().accepted).toHaveLength(2) // the provider got it twice: the lease must outlast any provider call
      expect(await interactionOf(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: theirs })
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent', providerMessageId: theirs })
      expect(world.logs.some((e) => e.message === 'outbox outcome came after the claim lapsed' && e.fields.messageId === outboxId)).toBe(
        true,
      )
    })

    test('a late success while another worker holds the text is not recorded; that worker finds it at the provider and does not send it again', async () => {
      const { interactionId, outboxId } = await queue()
      const { late } = await hangingWorker()
      const [reclaimed] = await world.dispatcher.claim()
      sms().release()
      await late
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sending' })
      expect((await interactionOf(interactionId)).deliveryStatus).toBe('queued')
      await world.dispatcher.deliver(reclaimed!)
      const [lateId] = sms().accepted.map((a) => a.id)
      expect(sms().attempts).toHaveLength(1)
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent', providerMessageId: lateId })
      expect(await interactionOf(interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: lateId })
    })

    test('a late refusal does not fail a text another worker sent', async () => {
      const { interactionId, outboxId } = await queue()
      const { late } = await hangingWorker()
      sms().letThrough()
      await world.dispatcher.runOnce()
      sms().failNext(refusedSms())
      sms().release()
      await late
      expect((await interactionOf(interactionId)).deliveryStatus).toBe('sent')
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent', attempts: 0 })
    })

    test("a late retryable failure does not put back a text another worker holds: that worker's outcome still counts", async () => {
      const { interactionId, outboxId } = await queue()
      const { late } = await hangingWorker()
      const [reclaimed] = await world.dispatcher.claim()
      sms().failNext(retryableSms())
      sms().release()
      await late
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sending', attempts: 0 })
      sms().letThrough()
      await world.dispatcher.deliver(reclaimed!)
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent' })
      expect((await interactionOf(interactionId)).deliveryStatus).toBe('sent')
    })

    test('a late success still counts when nobody claimed the text again', async () => {
      const { interactionId, outboxId } = await queue()
      const { late } = await hangingWorker()
      sms().release()
      await late
      expect(await world.outboxMessage(outboxId)).toMatchObject({ status: 'sent', providerMessageId: sms().accepted[0]!.id })
      expect((await interactionOf(interactionId)).deliveryStatus).toBe('sent')
    })
  })
})
