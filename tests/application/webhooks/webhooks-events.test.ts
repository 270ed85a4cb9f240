import { beforeEach, describe, expect, test } from 'bun:test'
import { ProviderError } from '../../../src/application/ports/provider-error'
import type { WebhookRequest } from '../../../src/application/ports/webhooks'
import { DISABLE_AFTER_FAILED_DELIVERIES, WEBHOOK_EVENT_TYPES, WEBHOOK_MAX_ATTEMPTS } from '../../../src/domain/webhooks/webhook'
import { PORTS } from '../../../src/main/container'
import { verifySignature } from '../../support/webhook-receiver'
import type { World } from '../../support/world'
import { createWebhookWorld, type FakeWebhookSender, failureOf, webhookHelpers } from './webhooks-support'

// docs/events.md, through the use cases on the in-memory adapters, with a fake sender behind the port: each
// write emits its event in its own transaction, ids only, so a receiver learns of a change without being
// handed the personal details it touched; a delivery is tried again on a schedule until it fails for good,
// an endpoint that keeps failing is disabled, and every post is signed as Standard Webhooks says.

let world: World
let sender: FakeWebhookSender
beforeEach(async () => {
  ;({ world, sender } = await createWebhookWorld())
})
const { subscribe, dispatch, deliveriesOf, newNeed } = webhookHelpers(() => world)
const bodyOf = (request: WebhookRequest) => JSON.parse(request.body) as { type: string; timestamp: string; data: Record<string, string> }

describe('events', () => {
  test('each write use case emits its event, ids only, in its own transaction', async () => {
    const endpoint = await subscribe()
    const need = await newNeed({ firstName: 'Grace', lastName: 'Hopper', phone: '+15035550101' })
    await world.useCases.needs.update.execute(world.admin, need.id, { status: 'IN_PROGRESS' })
    await world.useCases.needs.addNote.execute(world.admin, need.id, 'A private note')
    const source = await world.useCases.constituents.create.execute(world.admin, {
      firstName: 'Ada',
      lastName: 'Byron',
      phone: '+15035550199',
    })
    const target = await world.useCases.constituents.create.execute(world.admin, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+15035550199',
    })
    const [match] = (await world.useCases.constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 10 })).items
    await world.useCases.constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
    await world.useCases.constituents.merge.execute(world.admin, { sourceConstituentId: source.id, targetConstituentId: target.id })
    await world.useCases.constituents.erase.execute(world.admin, target.id)
    await world.useCases.operations.setOrganizationPhoneNumber.execute(
      (await world.repositories.organizations.findById(world.organizationId))!.slug,
      '+15550001111',
    )
    await world.useCases.sms.receive.execute({
      url: 'x',
      signature: 'accepted by the fake verifier',
      params: { From: '+15035550101', To: '+15550001111', Body: 'hello', MessageSid: 'SM1' },
    })
    await world.container.get(PORTS.unitOfWork).run((r) =>
      r.interactions.insert({
        id: crypto.randomUUID(),
        organizationId: world.organizationId,
        needId: need.id,
        channel: 'sms',
        direction: 'outbound',
        senderIdentifier: 'x',
        deliveryStatus: 'sent',
        providerMessageId: 'SM2',
        createdAt: world.clock.now(),
      }),
    )
    await world.useCases.sms.recordStatus.execute({
      url: 'x',
      signature: 'accepted by the fake verifier',
      params: { MessageSid: 'SM2', MessageStatus: 'delivered' },
    })
    await world.useCases.sms.receive.execute({
      url: 'x',
      signature: 'accepted by the fake verifier',
      params: { From: '+15035550199', To: '+15550001111', Body: 'who is this', MessageSid: 'SM3' },
    })
    const message = await world.repositories.interactions.findByProviderMessageId('SM3')
    await world.useCases.sms.attach.execute(world.admin, message!.id, need.id)

    while ((await dispatch()) > 0) {}
    const types = sender.requests.map((r) => bodyOf(r).type)
    // A referral's events need a second organization, paired: tests/application/referrals asks for them.
    expect(new Set(types)).toEqual(new Set(WEBHOOK_EVENT_TYPES.filter((type) => !type.startsWith('referral.'))))
    expect(types.filter((t) => t === 'need.created')).toEqual(['need.created'])
    const bodies = sender.requests.map((r) => r.body).join('\n')
    for (const pii of ['Grace', 'Hopper', '+1503555', 'A private note', 'hello', 'Lovelace']) expect(bodies).not.toContain(pii)
    expect(bodyOf(sender.requests.find((r) => bodyOf(r).type === 'need.created')!)).toEqual({
      type: 'need.created',
      timestamp: world.clock.now().toISOString(),
      data: { needId: need.id },
    })
    expect(bodyOf(sender.requests.find((r) => bodyOf(r).type === 'constituent.merged')!).data).toEqual({
      constituentId: target.id,
      mergedConstituentId: source.id,
    })
    expect(bodyOf(sender.requests.find((r) => bodyOf(r).type === 'constituent.erased')!).data).toEqual({ constituentId: target.id })
    expect((await deliveriesOf(endpoint.id)).every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true)
  })

  test('a text the worker sends, or gives up on, is an sms.status event too', async () => {
    await subscribe(['sms.status'])
    const need = await newNeed({ firstName: 'Grace', phone: '+15035550101' })
    const { interactionId } = await world.useCases.needs.sendSms.execute(world.admin, need.id, 'Your box is ready')
    while ((await dispatch()) > 0) {}
    expect(sender.requests.map((r) => bodyOf(r).data)).toEqual([{ interactionId, status: 'sent', needId: need.id }])
    expect(sender.requests[0]!.body).not.toContain('Your box')
  })

  test('a change that rolls back sends nothing; endpoints get only their events, disabled ones none', async () => {
    const needs = await subscribe(['need.updated'])
    const notes = await subscribe(['note.added'])
    const off = await subscribe(['need.updated'])
    await world.useCases.webhooks.update.execute(world.admin, off.id, { enabled: false })
    const need = await newNeed()
    await world.useCases.needs.update.execute(world.admin, need.id, { status: 'RESOLVED' })
    expect(await failureOf(world.useCases.needs.update.execute(world.admin, need.id, { status: 'NEW' }))).toMatchObject({
      kind: 'conflict',
    })
    while ((await dispatch()) > 0) {}
    expect(sender.requests.map((r) => bodyOf(r).type)).toEqual(['need.updated'])
    expect(await deliveriesOf(needs.id)).toHaveLength(1)
    expect(await deliveriesOf(notes.id)).toEqual([])
    expect(await deliveriesOf(off.id)).toEqual([])
  })

  test('each endpoint gets its own copy, with its own webhook-id and signature', async () => {
    const [a, b] = [
      await subscribe(['need.created'], 'https://a.example.org/'),
      await subscribe(['need.created'], 'https://b.example.org/'),
    ]
    await newNeed()
    await dispatch()
    expect(sender.requests.map((r) => r.url).sort()).toEqual(['https://a.example.org/', 'https://b.example.org/'])
    expect(new Set(sender.requests.map((r) => r.id)).size).toBe(2)
    for (const [request, endpoint] of [
      [sender.requests.find((r) => r.url === a.url)!, a],
      [sender.requests.find((r) => r.url === b.url)!, b],
    ] as const) {
      expect(request.secret).toBe(endpoint.secret)
      expect(request.body).toBe(sender.requests[0]!.body)
    }
  })
})

describe('delivery', () => {
  test('non-2xx and lost answers are tried again after 10 s, 1 min, 5 min … with the same id; after 8 tries the delivery fails', async () => {
    const endpoint = await subscribe(['need.created'])
    sender.answers = [
      500,
      new ProviderError('Webhook delivery failed', 'the endpoint could not be reached', true, true),
      404,
      301,
      500,
      502,
      503,
      504,
    ]
    await newNeed()
    const waits = [10_000, 60_000, 300_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000]
    await dispatch()
    for (const wait of waits) {
      world.clock.advance(wait - 1)
      expect(await dispatch()).toBe(0)
      world.clock.advance(1)
      expect(await dispatch()).toBe(1)
    }
    expect(sender.requests).toHaveLength(WEBHOOK_MAX_ATTEMPTS)
    expect(new Set(sender.requests.map((r) => r.id)).size).toBe(1)
    // webhook-timestamp is each try's own time
    expect(new Set(sender.requests.map((r) => r.timestamp.getTime())).size).toBe(WEBHOOK_MAX_ATTEMPTS)
    const [delivery] = await deliveriesOf(endpoint.id)
    expect(delivery).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, lastStatusCode: 504 })
    world.clock.advance(86_400_000)
    expect(await dispatch()).toBe(0)
  })

  test(`${DISABLE_AFTER_FAILED_DELIVERIES} deliveries failed for good in a row disable the endpoint; a 2xx in between resets the count`, async () => {
    const endpoint = await subscribe(['need.created'])
    const failEverything = async (count: number) => {
      for (let i = 0; i < count; i++) await newNeed()
      sender.answers = Array(count * WEBHOOK_MAX_ATTEMPTS).fill(500)
      for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
        await dispatch()
        world.clock.advance(86_400_000)
      }
    }
    await failEverything(DISABLE_AFTER_FAILED_DELIVERIES - 1)
    expect(await world.useCases.webhooks.get.execute(world.admin, endpoint.id)).toMatchObject({
      enabled: true,
      consecutiveFailures: DISABLE_AFTER_FAILED_DELIVERIES - 1,
    })
    await newNeed()
    await dispatch() // answered 200
    expect(await world.useCases.webhooks.get.execute(world.admin, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0 })

    await failEverything(DISABLE_AFTER_FAILED_DELIVERIES)
    const disabled = await world.useCases.webhooks.get.execute(world.admin, endpoint.id)
    expect(disabled).toMatchObject({ enabled: false, consecutiveFailures: DISABLE_AFTER_FAILED_DELIVERIES })
    expect(disabled.disabledAt).toBeInstanceOf(Date)

    const before = sender.requests.length
    await newNeed()
    await dispatch()
    expect(sender.requests).toHaveLength(before)
    expect(await world.useCases.webhooks.update.execute(world.admin, endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
    })
  })

  test('the signature is the Standard Webhooks v1 HMAC of id.timestamp.body under the decoded secret', async () => {
    const { webhookSignature } = await import('../../../src/adapters/messaging/http-webhook-sender')
    const endpoint = await subscribe(['need.created'])
    await newNeed()
    await dispatch()
    const [request] = sender.requests
    const timestamp = Math.floor(request!.timestamp.getTime() / 1000)
    const headers = new Headers({
      'webhook-id': request!.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,bm90LWl0 ${webhookSignature(endpoint.secret, request!.id, timestamp, request!.body)}`,
    })
    expect(verifySignature(endpoint.secret, headers, request!.body)).toBe(true)
    expect(verifySignature(endpoint.secret, headers, request!.body.replace('need', 'Need'))).toBe(false)
    // The specification's own example (standard-webhooks/spec, "Verifying webhook authenticity")
    expect(
      webhookSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
  })
})
