import { describe, expect, test } from 'bun:test'
import { PORTS } from '../../../src/main/container'
import { startOutboxWorker } from '../../../src/main/outbox-worker'
import { api, clock, dispatch, fake, openSmsServer, world } from './sms-support'
import { ACCOUNT_SID, AUTH_TOKEN, drain, interaction, interactions, needFor, newPhone, ORG_NUMBER, PUBLIC_BASE_URL } from './sms-support'
import { queued, setPhoneNumber } from './sms-support'

// docs/api/organization.md "SMS": a text from the request to Twilio through the outbox, over real HTTP, with Twilio played
// by msw. Each text must reach Twilio exactly once, whatever Twilio answers, whichever worker dies on the way,
// and never with more in flight than the organization allows.
openSmsServer()

describe('POST /api/needs/{id}/sms → outbox → Twilio', () => {
  test('202 records a queued sms interaction; the worker sends it to Twilio; the interaction is sent with the sid', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Your food box is ready for pickup.')

    const recorded = await interaction(needId, interactionId)
    expect(recorded).toMatchObject({
      id: interactionId,
      organizationId: world.organizationId,
      partnerId: world.defaultPartner.id,
      needId,
      channel: 'sms',
      senderIdentifier: ORG_NUMBER,
      content: 'Your food box is ready for pickup.',
      deliveryStatus: 'queued',
    })
    expect(recorded).not.toHaveProperty('providerMessageId')
    expect(fake.to(phone)).toEqual([]) // queued, not sent in the request

    await drain()

    expect(fake.to(phone)).toEqual([
      {
        authorization: `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`,
        from: ORG_NUMBER,
        to: phone,
        body: 'Your food box is ready for pickup.',
        statusCallback: `${PUBLIC_BASE_URL}/api/webhooks/twilio/status`,
        answered: 201,
      },
    ])
    const sid = fake.accepted.find((m) => m.to === phone)!.sid
    expect(await interaction(needId, interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: sid })
    // Sent once: another pass finds nothing to do.
    await drain()
    expect(fake.to(phone)).toHaveLength(1)
  })

  test('503 twice, then 201: retried with backoff, sent after the clock has moved; three requests', async () => {
    const phone = newPhone()
    fake.answer(phone, 503, 503)
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Retry me')

    await drain()
    expect(fake.to(phone).map((r) => r.answered)).toEqual([503])
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('queued')
    // Not due before its backoff (2 s after the first failure).
    clock.advance(1_000)
    await drain()
    expect(fake.to(phone)).toHaveLength(1)
    clock.advance(1_000)
    await drain()
    expect(fake.to(phone).map((r) => r.answered)).toEqual([503, 503])
    clock.advance(4_000)
    await drain()
    expect(fake.to(phone).map((r) => r.answered)).toEqual([503, 503, 201])
    const sid = fake.accepted.find((m) => m.to === phone)!.sid
    expect(await interaction(needId, interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: sid })
    clock.advance(60_000)
    await drain()
    expect(fake.to(phone)).toHaveLength(3)
  })

  test('429 and a network error are retried as well', async () => {
    const phone = newPhone()
    fake.answer(phone, 429, 'network')
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Throttled, then unreachable')
    for (const wait of [0, 2_000, 4_000]) {
      clock.advance(wait)
      await drain()
    }
    expect(fake.to(phone).map((r) => r.answered)).toEqual([429, 'network', 201])
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('sent')
  })

  test('gives up after 5 tries of 503: the interaction is failed, exactly 5 requests', async () => {
    const phone = newPhone()
    fake.answer(phone, 503, 503, 503, 503, 503, 503, 503)
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Never arrives')
    for (const wait of [0, 2_000, 4_000, 8_000, 16_000]) {
      clock.advance(wait)
      await drain()
    }
    expect(fake.to(phone).map((r) => r.answered)).toEqual([503, 503, 503, 503, 503])
    const failed = await interaction(needId, interactionId)
    expect(failed?.deliveryStatus).toBe('failed')
    expect(failed).not.toHaveProperty('providerMessageId')
    clock.advance(120_000)
    await drain()
    expect(fake.to(phone)).toHaveLength(5)
    fake.answer(phone) // leave no script behind
  })

  test('a 400 (e.g. an unreachable number) is not retried: one request, failed', async () => {
    const phone = newPhone()
    fake.answer(phone, 400)
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Bad number')
    await drain()
    clock.advance(120_000)
    await drain()
    expect(fake.to(phone).map((r) => r.answered)).toEqual([400])
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('failed')
  })

  test('a text whose worker died after Twilio took it is found at Twilio and not sent again', async () => {
    await drain()
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Sent just before the crash')
    // A worker claims it, reaches Twilio, and dies before recording anything.
    const [claimed] = await dispatch.claim()
    expect(claimed?.payload).toMatchObject({ channel: 'sms', sms: { to: phone, interactionId } })
    await api.server.container
      .get(PORTS.sms)
      .send({ organizationId: api.world.organizationId, from: ORG_NUMBER, to: phone, body: 'Sent just before the crash' })
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('queued')
    // Its claim lapses (60 s); the next worker asks Twilio first.
    clock.advance(61_000)
    await drain()
    expect(fake.to(phone)).toHaveLength(1)
    const sid = fake.accepted.find((m) => m.to === phone)!.sid
    expect(await interaction(needId, interactionId)).toMatchObject({ deliveryStatus: 'sent', providerMessageId: sid })
  })

  test('a text whose worker died before reaching Twilio is sent once after the claim lapses', async () => {
    await drain()
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Claimed, then the worker died')
    expect((await dispatch.claim()).map((m) => m.payload)).toEqual([expect.objectContaining({ channel: 'sms' })])
    await drain()
    expect(fake.to(phone)).toHaveLength(0)
    clock.advance(61_000)
    await drain()
    expect(fake.to(phone)).toHaveLength(1)
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('sent')
  })

  test("at most the organization's maxConcurrency texts in flight: 12 queued with maxConcurrency 3, never more than 3 at Twilio, each once", async () => {
    await drain()
    const busy = await world.otherOrganization()
    const number = newPhone()
    await setPhoneNumber(busy, number)
    const token = await api.tokenFor(busy, 'org_admin')
    const settings = (await api.call('GET', '/api/organizations/settings', { token })).body as { name: string; slug: string }
    const put = await api.call('PUT', '/api/organizations/settings', {
      token,
      body: { name: settings.name, slug: settings.slug, maxConcurrency: 3 },
    })
    expect(put.body).toMatchObject({ maxConcurrency: 3 })

    const needId = await needFor(newPhone(), token, busy)
    const bodies = Array.from({ length: 12 }, (_, i) => `Message ${i + 1} of 12`)
    const ids: string[] = []
    for (const body of bodies) ids.push(await queued(needId, body, token))

    fake.holdMs = 60
    // The worker loop of `serve`, and two more workers claiming at the same time, as other processes would.
    const worker = startOutboxWorker(dispatch, api.server.container.get(PORTS.logger), 20)
    try {
      const others = Promise.all(
        [0, 1].map(async () => {
          for (let pass = 0; pass < 30; pass++) {
            await dispatch.runOnce()
            await Bun.sleep(5)
          }
        }),
      )
      for (let waited = 0; waited < 5_000 && fake.from(number).length < 12; waited += 20) await Bun.sleep(20)
      await others
    } finally {
      await worker.stop()
      fake.holdMs = 0
    }

    expect(fake.maxInFlightFrom(number)).toBe(3)
    expect(
      fake
        .from(number)
        .map((r) => r.body)
        .sort(),
    ).toEqual([...bodies].sort())
    const statuses = (await interactions(needId, token)).filter((i) => ids.includes(i.id)).map((i) => i.deliveryStatus)
    expect(statuses).toEqual(Array(12).fill('sent'))
  })
})
