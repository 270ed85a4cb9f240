import { beforeEach, describe, expect, test } from 'bun:test'
import type { ProviderWebhookCall } from '../../../src/application/sms/provider-webhook'
import { ForbiddenError } from '../../../src/domain/errors'
import type { DeliveryStatus } from '../../../src/domain/messaging/sms'
import { failureOf } from '../failure-of'
import { createSmsWorld, PUBLIC_BASE_URL, VALID_SIGNATURE, type SmsWorld } from '../sms-world'

const STATUS_URL = `${PUBLIC_BASE_URL}/api/webhooks/twilio/status`

let world: SmsWorld
let interactionId: string
let sid: string
beforeEach(async () => {
  world = await createSmsWorld()
  await world.configureOrganization({ phoneNumber: '+15557770000' })
  const ana = await world.constituent({ firstName: 'Ana', phone: '+15550001111' })
  ;({ interactionId } = await world.send((await world.needFor(ana.id)).id))
  await world.dispatcher.runOnce()
  sid = (await world.interaction(interactionId))!.providerMessageId!
})

/** A status callback as Twilio posts it, validly signed. */
const callback = (MessageStatus: string, MessageSid = sid): ProviderWebhookCall => ({
  url: STATUS_URL,
  params: { MessageSid, MessageStatus, AccountSid: 'AC0000', To: '+15550001111', From: '+15557770000' },
  signature: VALID_SIGNATURE,
})

const record = (request: ProviderWebhookCall) => world.useCases.sms.recordStatus.execute(request)
const status = async (): Promise<DeliveryStatus | undefined> => (await world.interaction(interactionId))?.deliveryStatus

describe('RecordSmsStatus', () => {
  test('a sent text starts as sent, with the id the provider answered', async () => {
    expect(sid).toMatch(/^SM/)
    expect(await status()).toBe('sent')
  })

  test('a status for an inbound message changes nothing: only texts we sent have a delivery', async () => {
    await world.useCases.sms.receive.execute({
      url: `${PUBLIC_BASE_URL}/api/webhooks/twilio/sms`,
      params: { From: '+15550001111', To: '+15557770000', Body: 'thanks', MessageSid: 'SMinbound000000000000000000000000' },
      signature: VALID_SIGNATURE,
    })
    await record(callback('delivered', 'SMinbound000000000000000000000000'))
    const inbound = await world.repositories.interactions.findByProviderMessageId('SMinbound000000000000000000000000')
    expect(inbound).toBeDefined()
    expect(inbound!.deliveryStatus).toBeUndefined()
  })

  test('delivered moves it to delivered, and nothing moves it back', async () => {
    await record(callback('delivered'))
    expect(await status()).toBe('delivered')
    for (const later of ['sent', 'queued', 'sending', 'failed', 'undelivered']) {
      await record(callback(later))
      expect(await status()).toBe('delivered')
    }
  })

  test('undelivered or failed moves it to failed, and nothing moves it back', async () => {
    await record(callback('undelivered'))
    expect(await status()).toBe('failed')
    for (const later of ['delivered', 'sent', 'queued']) {
      await record(callback(later))
      expect(await status()).toBe('failed')
    }
  })

  test('a late queued or accepted report does not move a sent text back', async () => {
    await record(callback('queued'))
    await record(callback('accepted'))
    expect(await status()).toBe('sent')
  })

  test("statuses that say nothing about delivery change nothing (read, receiving, one we don't know)", async () => {
    for (const other of ['read', 'receiving', 'warp-speed', '']) await record(callback(other))
    expect(await status()).toBe('sent')
  })

  test('takes the older SmsSid and SmsStatus names too', async () => {
    await record({ url: STATUS_URL, params: { SmsSid: sid, SmsStatus: 'delivered' }, signature: VALID_SIGNATURE })
    expect(await status()).toBe('delivered')
  })

  test('ignores a sid no interaction has', async () => {
    await record(callback('failed', `SM${'f'.repeat(32)}`))
    expect(await status()).toBe('sent')
  })

  test('a wrong or missing signature is Forbidden and changes nothing', async () => {
    for (const signature of ['forged', undefined]) {
      await failureOf(record({ ...callback('failed'), signature }), ForbiddenError)
    }
    expect(await status()).toBe('sent')
    expect(world.verifier.checked.map((c) => c.url)).toEqual([STATUS_URL, STATUS_URL])
  })
})

describe('RecordSmsStatus, a callback that beats the answer to the send', () => {
  test('a delivered status for a message not recorded yet is applied when the send is recorded', async () => {
    const ana = await world.constituent({ firstName: 'Ana', phone: '+15550002222' })
    const { interactionId: later } = await world.send((await world.needFor(ana.id)).id)
    // The provider will answer this id; its callback arrives first.
    const nextSid = `SM${String(world.sms.accepted.length + 1).padStart(32, '0')}`
    await record(callback('delivered', nextSid))
    await world.dispatcher.runOnce()
    expect(await world.interaction(later)).toMatchObject({ providerMessageId: nextSid, deliveryStatus: 'delivered' })
  })
})
