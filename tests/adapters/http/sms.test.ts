import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import twilio from 'twilio'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { SetOrganizationPhoneNumber } from '../../../src/application/organizations/set-organization-phone-number'
import { PORTS } from '../../../src/main/container'
import { startOutboxWorker } from '../../../src/main/outbox-worker'
import type { FixedClock } from '../../support/fixed-clock'
import { startTestServer, type ApiResponse, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, seedConstituent, UNKNOWN_ID } from './helpers'

// docs/api.md "Errors", docs/api.md "Permissions", docs/api.md "SMS"; over real HTTP, with Twilio's Messages API answered by msw in this
// process (the server's outgoing fetch is what msw intercepts; the test's own calls to the server pass).
const ACCOUNT_SID = `AC${'0'.repeat(32)}`
const AUTH_TOKEN = 'test-token'
const PUBLIC_BASE_URL = 'https://intake.example.org'
const MESSAGES = `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`
const ORG_NUMBER = '+15550001000'

type Answer = number | 'network'
interface TwilioRequest {
  authorization: string | null
  from: string
  to: string
  body: string
  statusCallback: string | null
  answered: Answer
}
interface InteractionJson {
  id: string
  organizationId: string
  partnerId?: string
  needId?: string
  channel: string
  senderIdentifier?: string
  content?: string
  deliveryStatus?: string
  providerMessageId?: string
  createdAt: string
}

/**
 * Twilio as msw plays it: accepts every message (201 with a new sid) unless told to answer a recipient
 * otherwise, optionally holds each request open, and counts the requests in flight per sending number.
 */
class TwilioFake {
  readonly requests: TwilioRequest[] = []
  /** What Twilio keeps of the messages it accepted (for the list that findSent reads). */
  readonly accepted: Array<{ sid: string; from: string; to: string; body: string; createdAt: Date }> = []
  holdMs = 0
  private readonly scripts = new Map<string, Answer[]>()
  private readonly inFlight = new Map<string, number>()
  private readonly maxInFlight = new Map<string, number>()
  private sequence = 0

  /** The next answers to messages to `to`, in order; then it accepts again. */
  answer(to: string, ...answers: Answer[]): void {
    this.scripts.set(to, [...(this.scripts.get(to) ?? []), ...answers])
  }

  to(to: string): TwilioRequest[] {
    return this.requests.filter((r) => r.to === to)
  }

  from(from: string): TwilioRequest[] {
    return this.requests.filter((r) => r.from === from)
  }

  maxInFlightFrom(from: string): number {
    return this.maxInFlight.get(from) ?? 0
  }

  readonly handlers = [
    http.post(MESSAGES, async ({ request }) => {
      const form = new URLSearchParams(await request.text())
      const from = form.get('From') ?? ''
      const to = form.get('To') ?? ''
      const now = (this.inFlight.get(from) ?? 0) + 1
      this.inFlight.set(from, now)
      this.maxInFlight.set(from, Math.max(now, this.maxInFlight.get(from) ?? 0))
      try {
        if (this.holdMs) await Bun.sleep(this.holdMs)
        const answered = this.scripts.get(to)?.shift() ?? 201
        this.requests.push({
          authorization: request.headers.get('authorization'),
          from,
          to,
          body: form.get('Body') ?? '',
          statusCallback: form.get('StatusCallback'),
          answered,
        })
        if (answered === 'network') return HttpResponse.error()
        if (answered !== 201)
          return HttpResponse.json({ code: 20000 + answered, message: `simulated ${answered}`, status: answered }, { status: answered })
        const sid = `SM${String(++this.sequence).padStart(32, '0')}`
        // Twilio's clock, taken to agree with the service's (the test moves the service's clock far ahead).
        this.accepted.push({ sid, from, to, body: form.get('Body') ?? '', createdAt: clock.now() })
        return HttpResponse.json({ sid, account_sid: ACCOUNT_SID, from, to, body: form.get('Body'), status: 'queued' }, { status: 201 })
      } finally {
        this.inFlight.set(from, (this.inFlight.get(from) ?? 1) - 1)
      }
    }),
    http.get(MESSAGES, ({ request }) => {
      const query = new URL(request.url).searchParams
      const found = this.accepted.filter((m) => m.from === query.get('From') && m.to === query.get('To'))
      return HttpResponse.json({
        messages: found.map((m) => ({ ...m, account_sid: ACCOUNT_SID, status: 'sent', date_created: m.createdAt.toUTCString() })),
        next_page_uri: null,
        page: 0,
        page_size: 1000,
        start: 0,
        end: Math.max(0, found.length - 1),
      })
    }),
  ]
}

const fake = new TwilioFake()
const msw = setupServer(...fake.handlers)

let api: TestServer
let world: World
let admin: string
let dispatch: DispatchOutbox
let clock: FixedClock
let phones = 0

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' })
  api = await startTestServer({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    PUBLIC_BASE_URL,
    SERVE_RUNS_WORKER: 'false',
    OUTBOX_POLL_MS: '20',
    // The worker's tests queue a dozen texts to one number; the limits have their own file.
    SMS_PER_RECIPIENT_PER_HOUR: '1000',
  })
  world = api.world
  dispatch = api.server.container.get(DispatchOutbox)
  clock = api.server.container.get(PORTS.clock) as FixedClock
  await setPhoneNumber(world, ORG_NUMBER)
})
// The tests move the clock (backoff, claim leases): a fresh token each, so none expires on the way.
beforeEach(async () => {
  admin = await api.tokenFor(world, 'org_admin')
})
afterAll(async () => {
  await api.stop()
  msw.close()
})

/** A phone number no other test uses. */
const newPhone = () => `+1555${String(2_000_000 + ++phones).padStart(7, '0')}`

async function setPhoneNumber(w: World, phone: string): Promise<void> {
  const organization = await w.repositories.organizations.findById(w.organizationId)
  await api.server.container.get(SetOrganizationPhoneNumber).execute(organization!.slug, phone)
}

/** A need of the default partner whose constituent has `phone` (none when null). */
async function needFor(phone: string | null, token = admin, w = world): Promise<string> {
  const { constituentId } = await seedConstituent(api, token, { firstName: 'Grace', lastName: 'Hopper', ...(phone ? { phone } : {}) })
  const need = await api.call<{ id: string }>('POST', '/api/needs', { token, body: { partnerId: w.defaultPartner.id, constituentId } })
  expect(need.status).toBe(201)
  return need.body.id
}

const text = (needId: string, body: unknown, token = admin) =>
  api.call<{ interactionId: string }>('POST', `/api/needs/${needId}/sms`, { token, body })

/** POST /sms that must be accepted; answers the interaction id. */
async function queued(needId: string, body: string, token = admin): Promise<string> {
  const response = await text(needId, { body }, token)
  expect({ status: response.status, body: response.body }).toEqual({ status: 202, body: { interactionId: response.body?.interactionId } })
  expect(response.body.interactionId).toMatch(/^[0-9a-f-]{36}$/)
  return response.body.interactionId
}

async function interactions(needId: string, token = admin): Promise<InteractionJson[]> {
  const response = await api.call<InteractionJson[]>('GET', `/api/needs/${needId}/interactions`, { token })
  expect(response.status).toBe(200)
  return response.body
}

async function interaction(needId: string, id: string): Promise<InteractionJson | undefined> {
  return (await interactions(needId)).find((i) => i.id === id)
}

/** Sends what is due until nothing is (retries scheduled later stay). */
async function drain(): Promise<void> {
  for (let pass = 0; pass < 50 && (await dispatch.runOnce()) > 0; pass++);
}

/** POSTs a Twilio webhook as Twilio would: form-encoded, signed over PUBLIC_BASE_URL + path unless told otherwise. */
function webhook(
  path: string,
  params: Record<string, string>,
  signature: string | null = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${path}`, params),
) {
  return api.call('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature === null ? {} : { 'x-twilio-signature': signature }) },
  })
}

let inboundSids = 0
const inbound = (from: string, body: string, to = ORG_NUMBER) => ({
  ToCountry: 'US',
  SmsMessageSid: `SMin${String(++inboundSids).padStart(30, '0')}`,
  NumMedia: '0',
  From: from,
  To: to,
  Body: body,
  MessageSid: `SMin${String(inboundSids).padStart(30, '0')}`,
  AccountSid: ACCOUNT_SID,
  NumSegments: '1',
  ApiVersion: '2010-04-01',
})

const expectTwiml = (response: ApiResponse) => {
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toStartWith('text/xml')
  expect(String(response.body)).toContain('<Response></Response>')
}

describe('POST /api/needs/{id}/sms: what is refused', () => {
  test('a need without a constituent is 400, and nothing is recorded', async () => {
    const need = await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId: world.defaultPartner.id } })
    const body = expectBadRequest(await text(need.body.id, { body: 'Hello' }))
    expect(body.detail).toContain('no constituent')
    expect(await interactions(need.body.id)).toEqual([])
  })

  test('a constituent without a phone number is 400', async () => {
    const needId = await needFor(null)
    const body = expectBadRequest(await text(needId, { body: 'Hello' }))
    expect(body.detail).toContain('no phone number')
    expect(await interactions(needId)).toEqual([])
  })

  test('an organization without an SMS number is 400 with Twilio (the operator sets it)', async () => {
    const numberless = await world.otherOrganization()
    const token = await api.tokenFor(numberless, 'org_admin')
    const needId = await needFor(newPhone(), token, numberless)
    const body = expectBadRequest(await text(needId, { body: 'Hello' }, token))
    expect(body.detail).toContain('set-phone-number')
    expect(await interactions(needId, token)).toEqual([])
    // Once it has one, the same text is accepted, sent from that number.
    await setPhoneNumber(numberless, newPhone())
    expect((await text(needId, { body: 'Hello' }, token)).status).toBe(202)
  })

  test.each([
    ['an empty body', { body: '' }],
    ['a body over 1600 characters', { body: 'x'.repeat(1601) }],
    ['no body field', {}],
    ['a body that is not a string', { body: 42 }],
    ['an unknown property', { body: 'Hello', mediaUrl: 'https://x.test/a.png' }],
  ])('%s is 400 naming the field, and nothing is queued', async (_name, payload) => {
    const needId = await needFor(newPhone())
    const response = await text(needId, payload)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, 'mediaUrl' in payload ? '/mediaUrl' : '/body')
    expect(await interactions(needId)).toEqual([])
  })

  test('a body of exactly 1600 characters is accepted', async () => {
    const needId = await needFor(newPhone())
    const id = await queued(needId, 'y'.repeat(1600))
    expect((await interaction(needId, id))?.content).toHaveLength(1600)
  })

  test('an over-long id is 400, no token 401', async () => {
    expectBadRequest(await text('x'.repeat(65), { body: 'Hello' }), 'id')
    const needId = await needFor(newPhone())
    expectProblem(await api.call('POST', `/api/needs/${needId}/sms`, { body: { body: 'Hello' } }), 401, 'Unauthorized')
    expect(await interactions(needId)).toEqual([])
  })

  test('403 for roles without sms_communicator; 202 with it (docs/api.md "Permissions")', async () => {
    const needId = await needFor(newPhone())
    const partner = await world.partner({ name: 'SMS partner' })
    const refused = await Promise.all([
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'staff', { profiles: ['pii_reader', 'email_phone_communicator'] }),
      api.tokenFor(world, 'partner_admin', { partnerId: partner.id }),
      api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id }),
    ])
    for (const token of refused) expectProblem(await text(needId, { body: 'Hello' }, token), 403, 'Forbidden')
    expect(await interactions(needId)).toEqual([])

    const communicator = await api.tokenFor(world, 'staff', { profiles: ['sms_communicator'] })
    const id = await queued(needId, 'Hello from staff', communicator)
    expect((await interaction(needId, id))?.content).toBe('Hello from staff')
    const volunteer = await api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id, profiles: ['sms_communicator'] })
    await queued(needId, 'Hello from a volunteer', volunteer)
  })

  test("404 for another organization's need (the same answer as an unknown id), and for a need outside a partner role's scope", async () => {
    const needId = await needFor(newPhone())
    const other = await world.otherOrganization()
    await setPhoneNumber(other, newPhone())
    const stranger = await api.tokenFor(other, 'org_admin')
    const foreign = await text(needId, { body: 'Hello' }, stranger)
    expectProblem(foreign, 404, 'Not found')
    expect((await text(UNKNOWN_ID, { body: 'Hello' }, stranger)).body).toEqual(foreign.body)

    const elsewhere = await world.partner({ name: 'Elsewhere' })
    const agent = await api.tokenFor(world, 'partner_agent', { partnerId: elsewhere.id, profiles: ['sms_communicator'] })
    expectProblem(await text(needId, { body: 'Hello' }, agent), 404, 'Not found')
    expect(await interactions(needId)).toEqual([])
  })
})

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
    await api.server.container.get(PORTS.sms).send({ from: ORG_NUMBER, to: phone, body: 'Sent just before the crash' })
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

describe('Twilio webhooks', () => {
  const SMS_HOOK = '/api/webhooks/twilio/sms'
  const STATUS_HOOK = '/api/webhooks/twilio/status'

  test("a correctly signed inbound text answers empty TwiML and lands on the constituent's newest open need", async () => {
    const phone = newPhone()
    const { constituentId } = await seedConstituent(api, admin, { firstName: 'Ida', lastName: 'Wells', phone })
    const newNeed = async () =>
      (await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId: world.defaultPartner.id, constituentId } }))
        .body.id
    const older = await newNeed()
    clock.advance(1_000)
    const newest = await newNeed()
    clock.advance(1_000)
    const resolved = await newNeed()
    expect((await api.call('PUT', `/api/needs/${resolved}`, { token: admin, body: { status: 'RESOLVED' } })).status).toBe(200)

    const params = inbound(phone, 'Is the pantry open on Saturday?')
    expectTwiml(await webhook(SMS_HOOK, params))

    expect(await interactions(older)).toEqual([])
    expect(await interactions(resolved)).toEqual([])
    expect(await interactions(newest)).toEqual([
      expect.objectContaining({
        organizationId: world.organizationId,
        needId: newest,
        partnerId: world.defaultPartner.id,
        channel: 'sms',
        senderIdentifier: phone,
        content: 'Is the pantry open on Saturday?',
        providerMessageId: params.MessageSid,
      }),
    ])
    expect((await interactions(newest))[0]).not.toHaveProperty('deliveryStatus')
  })

  test('the same inbound text delivered several times at once is kept once; a delivery that loses the race is a 409 problem, never a 500', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const params = inbound(phone, 'Are you open today?')

    const answers = await Promise.all(Array.from({ length: 4 }, () => webhook(SMS_HOOK, params)))
    for (const answer of answers) {
      if (answer.status === 200) expectTwiml(answer)
      else {
        expect(answer.status).toBe(409)
        expect(answer.headers.get('content-type')).toStartWith('application/problem+json')
      }
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    expect((await interactions(needId)).map((i) => i.providerMessageId)).toEqual([params.MessageSid])
  })

  test("an inbound text's number shows, as its sender, only to roles that may read the person's phone", async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Thank you')))
    const [staff, volunteer, agent, partnerAdmin, communicator] = await Promise.all([
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id }),
      api.tokenFor(world, 'partner_agent', { partnerId: world.defaultPartner.id }),
      api.tokenFor(world, 'partner_admin', { partnerId: world.defaultPartner.id }),
      api.tokenFor(world, 'staff', { profiles: ['email_phone_communicator'] }),
    ])
    for (const token of [admin, partnerAdmin, communicator]) {
      expect(await interactions(needId, token)).toEqual([
        expect.objectContaining({ channel: 'sms', senderIdentifier: phone, content: 'Thank you' }),
      ])
    }
    for (const token of [staff, volunteer, agent]) {
      const [text] = await interactions(needId, token)
      expect(text).toMatchObject({ channel: 'sms', content: 'Thank you' })
      expect(text).not.toHaveProperty('senderIdentifier')
    }
  })

  test('a wrong or missing signature is a 403 problem and nothing is stored', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const params = inbound(phone, 'STOP')
    const local = `${api.url}${SMS_HOOK}`
    const forgeries: Array<[string, string | null]> = [
      ['no signature', null],
      ['an empty signature', ''],
      ['signed with another token', twilio.getExpectedTwilioSignature('not-the-token', `${PUBLIC_BASE_URL}${SMS_HOOK}`, params)],
      ['signed over the local address, not PUBLIC_BASE_URL', twilio.getExpectedTwilioSignature(AUTH_TOKEN, local, params)],
      [
        'signed for other parameters',
        twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${SMS_HOOK}`, { ...params, Body: 'Hello' }),
      ],
      ['signed for the status hook', twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${STATUS_HOOK}`, params)],
    ]
    for (const [name, signature] of forgeries) {
      const response = await webhook(SMS_HOOK, params, signature)
      expect({ name, status: response.status }).toEqual({ name, status: 403 })
      expectProblem(response, 403, 'Forbidden')
    }
    expect(await interactions(needId)).toEqual([])
    // The forged STOPs opted nobody out.
    expect((await text(needId, { body: 'Still reachable' })).status).toBe(202)
  })

  test('STOP opts the number out (sending is 400); START opts it back in; other organizations are not affected', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const other = await world.otherOrganization()
    const otherNumber = newPhone()
    await setPhoneNumber(other, otherNumber)
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const otherNeed = await needFor(phone, otherAdmin, other)

    expectTwiml(await webhook(SMS_HOOK, inbound(phone, '  stop ')))
    const refused = expectBadRequest(await text(needId, { body: 'Are you there?' }))
    expect(refused.detail).toContain('opted out')
    // The organization keeps its own list: the other one may still text the same number.
    expect((await text(otherNeed, { body: 'From the other organization' }, otherAdmin)).status).toBe(202)
    // A STOP to a number no organization has changes nothing.
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'STOP', '+15559999999')))
    expect((await text(otherNeed, { body: 'Still from the other organization' }, otherAdmin)).status).toBe(202)

    clock.advance(1_000)
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Start')))
    const id = await queued(needId, 'Welcome back')
    await drain()
    expect(
      fake
        .to(phone)
        .filter((r) => r.from === ORG_NUMBER)
        .map((r) => r.body),
    ).toEqual(['Welcome back'])
    expect((await interaction(needId, id))?.deliveryStatus).toBe('sent')
    // The keywords themselves are kept on the need, like any message.
    const inboundContents = (await interactions(needId)).filter((i) => i.senderIdentifier === phone).map((i) => i.content)
    expect(inboundContents).toEqual(['  stop ', 'Start'])
  })

  test('a signed status callback moves the interaction to delivered; an unsigned one changes nothing; delivered stays delivered', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Track me')
    await drain()
    const sid = (await interaction(needId, interactionId))!.providerMessageId!
    expect(sid).toStartWith('SM')
    const status = (messageStatus: string) => ({
      AccountSid: ACCOUNT_SID,
      MessageSid: sid,
      SmsSid: sid,
      MessageStatus: messageStatus,
      SmsStatus: messageStatus,
      From: ORG_NUMBER,
      To: phone,
      ApiVersion: '2010-04-01',
    })

    expectProblem(await webhook(STATUS_HOOK, status('delivered'), null), 403, 'Forbidden')
    expectProblem(
      await webhook(
        STATUS_HOOK,
        status('delivered'),
        twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${api.url}${STATUS_HOOK}`, status('delivered')),
      ),
      403,
      'Forbidden',
    )
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('sent')

    const delivered = await webhook(STATUS_HOOK, status('delivered'))
    expect(delivered.status).toBe(204)
    expect(await interaction(needId, interactionId)).toMatchObject({ deliveryStatus: 'delivered', providerMessageId: sid })
    // Twilio's callbacks may arrive out of order: a late "sent" does not move it back.
    expect((await webhook(STATUS_HOOK, status('sent'))).status).toBe(204)
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('delivered')
  })

  test('an undelivered callback marks the interaction failed; one for an unknown sid is accepted and ignored', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Lost on the way')
    await drain()
    const sid = (await interaction(needId, interactionId))!.providerMessageId!
    expect((await webhook(STATUS_HOOK, { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' })).status).toBe(204)
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('failed')
    expect((await webhook(STATUS_HOOK, { MessageSid: 'SMunknown', MessageStatus: 'delivered' })).status).toBe(204)
  })
})
