import { ProviderError } from '../../../src/application/ports/provider-error'
import { beforeEach, describe, expect, test } from 'bun:test'
import { MAX_ATTEMPTS } from '../../../src/domain/messaging/outbox'
import type { Need } from '../../../src/domain/needs/need'
import { createSmsWorld, refusedSms, retryableSms, STATUS_CALLBACK_URL, until, type SmsWorld } from '../sms-world'

const SECOND = 1000
const ORG_NUMBER = '+15557770000'
const PHONE = '+15550001111'

let world: SmsWorld
let need: Need
beforeEach(async () => {
  world = await createSmsWorld()
  await world.configureOrganization({ phoneNumber: ORG_NUMBER })
  need = await world.needFor((await world.constituent({ firstName: 'Ana', phone: PHONE })).id)
})

const sms = () => world.sms
const queue = (body?: string) => world.queue(need.id, body)
const interactionOf = async (id: string) => (await world.interaction(id))!

describe('DispatchOutbox, texts', () => {
  test("sends a queued text once, from the organization's number with the status callback, and marks its interaction sent", async () => {
    const { interactionId, outboxId } = await queue('Your box is ready')
    expect(await world.dispatcher.runOnce()).toBe(1)
    expect(sms().attempts).toEqual([{ from: ORG_NUMBER, to: PHONE, body: 'Your box is ready', statusCallbackUrl: STATUS_CALLBACK_URL }])
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

  describe("the organization's maxConcurrency", () => {
    test('with 2 and ten texts queued, no claim hands out more than 2 at once and the provider never has more than 2 in flight', async () => {
      await world.configureOrganization({ maxConcurrency: 2 })
      for (let i = 0; i < 10; i++) {
        await queue(`text ${i}`)
        world.clock.advance(1)
      }
      sms().hold()
      let handled = 0
      while (handled < 10) {
        const pass = world.dispatcher.runOnce()
        await until(() => sms().waiting === 2, 'two held sends')
        expect(sms().inFlight).toBe(2)
        expect(await world.dispatcher.claim()).toEqual([])
        expect(await world.dispatcher.runOnce()).toBe(0)
        sms().release()
        expect(await pass).toBe(2)
        handled += 2
      }
      expect(sms().maxInFlight).toBe(2)
      expect(sms().attempts.map((a) => a.body)).toEqual(Array.from({ length: 10 }, (_, i) => `text ${i}`))
      expect(await world.dispatcher.runOnce()).toBe(0)
    })

    test('a claim takes only the slots left free by texts still in flight', async () => {
      await world.configureOrganization({ maxConcurrency: 3 })
      for (let i = 0; i < 5; i++) await queue(`text ${i}`)
      expect(await world.dispatcher.claim()).toHaveLength(3)
      expect(await world.dispatcher.claim()).toHaveLength(0)
      world.clock.advance(world.leaseMs)
      expect(await world.dispatcher.claim()).toHaveLength(3)
    })

    test('one organization at its cap does not hold up another', async () => {
      await world.configureOrganization({ maxConcurrency: 1 })
      await queue('ours 1')
      await queue('ours 2')
      const other = await world.otherOrganization()
      const bo = await other.useCases.constituents.create.execute(other.admin, { firstName: 'Bo', phone: '+15550002222' })
      const theirs = await other.useCases.needs.create.execute(other.admin, { partnerId: other.defaultPartner.id, constituentId: bo.id })
      await other.useCases.needs.sendSms.execute(other.admin, theirs.id, 'theirs')
      const claimed = await world.dispatcher.claim()
      expect(claimed.map((m) => m.organizationId).sort()).toEqual([world.organizationId, other.organizationId].sort())
    })
  })

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
