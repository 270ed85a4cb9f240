import { afterAll, beforeAll, beforeEach, expect } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import twilio from 'twilio'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { SetOrganizationPhoneNumber } from '../../../src/application/organizations/set-organization-phone-number'
import { PORTS } from '../../../src/main/container'
import type { FixedClock } from '../../support/fixed-clock'
import { startTestServer, type ApiResponse, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { seedConstituent } from './helpers'

// What sms-refused, sms-delivery and sms-webhooks.test.ts share: one server a file with Twilio as the SMS
// provider, Twilio's Messages API answered by msw in this process (the server's outgoing fetch is what msw
// intercepts; the test's own calls to the server pass), and the ways to text a need, run the outbox and call
// Twilio's webhooks.
// Each file calls `openSmsServer()` at its top; its tests reach the rest through these exports.
export const ACCOUNT_SID = `AC${'0'.repeat(32)}`
export const AUTH_TOKEN = 'test-token'
export const PUBLIC_BASE_URL = 'https://intake.example.org'
const MESSAGES = `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`
export const ORG_NUMBER = '+15550001000'

type Answer = number | 'network'
interface TwilioRequest {
  authorization: string | null
  from: string
  to: string
  body: string
  statusCallback: string | null
  answered: Answer
}
export interface InteractionJson {
  id: string
  organizationId: string
  partnerId?: string
  needId?: string
  channel: string
  senderIdentifier?: string
  content?: string
  deliveryStatus?: string
  deliveryError?: string
  providerMessageId?: string
  createdAt: string
}

/**
 * Twilio as msw plays it: accepts every message (201 with a new sid) unless told to answer a recipient
 * otherwise, optionally holds each request open, and counts the requests in flight per sending number.
 */
export class TwilioFake {
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

/** The Twilio of the file that is running: each file has its own, as it has its own server. */
export let fake: TwilioFake
export let api: TestServer
export let world: World
export let admin: string
export let dispatch: DispatchOutbox
export let clock: FixedClock
let phones = 0

/** Before the tests of the file that calls it: its Twilio, listening, and the server; after them, both stopped. */
export function openSmsServer(): void {
  const own = new TwilioFake()
  const msw = setupServer(...own.handlers)
  beforeAll(async () => {
    fake = own
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
}

/** A phone number no other test uses. */
export const newPhone = () => `+1555${String(2_000_000 + ++phones).padStart(7, '0')}`

export async function setPhoneNumber(w: World, phone: string): Promise<void> {
  const organization = await w.repositories.organizations.findById(w.organizationId)
  await api.server.container.get(SetOrganizationPhoneNumber).execute(organization!.slug, phone)
}

/** A need of the default partner whose constituent has `phone` (none when null). */
export async function needFor(phone: string | null, token = admin, w = world): Promise<string> {
  const { constituentId } = await seedConstituent(api, token, { firstName: 'Grace', lastName: 'Hopper', ...(phone ? { phone } : {}) })
  const need = await api.call<{ id: string }>('POST', '/api/needs', { token, body: { partnerId: w.defaultPartner.id, constituentId } })
  expect(need.status).toBe(201)
  return need.body.id
}

export const text = (needId: string, body: unknown, token = admin) =>
  api.call<{ interactionId: string }>('POST', `/api/needs/${needId}/sms`, { token, body })

/** POST /sms that must be accepted; answers the interaction id. */
export async function queued(needId: string, body: string, token = admin): Promise<string> {
  const response = await text(needId, { body }, token)
  expect({ status: response.status, body: response.body }).toEqual({ status: 202, body: { interactionId: response.body?.interactionId } })
  expect(response.body.interactionId).toMatch(/^[0-9a-f-]{36}$/)
  return response.body.interactionId
}

export async function interactions(needId: string, token = admin): Promise<InteractionJson[]> {
  const response = await api.call<InteractionJson[]>('GET', `/api/needs/${needId}/interactions`, { token })
  expect(response.status).toBe(200)
  return response.body
}

export async function interaction(needId: string, id: string): Promise<InteractionJson | undefined> {
  return (await interactions(needId)).find((i) => i.id === id)
}

/** Sends what is due until nothing is (retries scheduled later stay). */
export async function drain(): Promise<void> {
  for (let pass = 0; pass < 50 && (await dispatch.runOnce()) > 0; pass++);
}

/** POSTs a Twilio webhook as Twilio would: form-encoded, signed over PUBLIC_BASE_URL + path unless told otherwise. */
export function webhook(
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
export const inbound = (from: string, body: string, to = ORG_NUMBER) => ({
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

export const expectTwiml = (response: ApiResponse) => {
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toStartWith('text/xml')
  expect(String(response.body)).toContain('<Response></Response>')
}
