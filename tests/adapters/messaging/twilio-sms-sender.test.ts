import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import twilio from 'twilio'
import { TwilioSmsSender, TwilioWebhookVerifier } from '../../../src/adapters/messaging/twilio-sms-sender'
import { ProviderError } from '../../../src/application/ports/provider-error'
import { captureRequests } from './support'

// docs/api/organization.md "SMS": the Twilio adapter, with Twilio's Messages API answered by msw.
const ACCOUNT_SID = `AC${'1'.repeat(32)}`
const AUTH_TOKEN = 'twilio-auth-token-9d8c7b6a-SECRET'
const MESSAGES = `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`
const STATUS_CALLBACK = 'https://intake.example.org/api/webhooks/twilio/status'
const sms = {
  organizationId: 'org-1',
  from: '+15550001000',
  to: '+15550002000',
  body: 'Your pantry pickup is Tuesday & Thursday — 10:00 ½ price 🙂',
}

const msw = setupServer()
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }))
afterEach(() => msw.resetHandlers())
afterAll(() => msw.close())

const sender = new TwilioSmsSender(ACCOUNT_SID, AUTH_TOKEN)

/** A message resource as Twilio answers it. */
const twilioMessage = (sid: string, overrides: Record<string, unknown> = {}) => ({
  sid,
  account_sid: ACCOUNT_SID,
  from: sms.from,
  to: sms.to,
  body: sms.body,
  status: 'queued',
  direction: 'outbound-api',
  date_created: 'Sun, 22 Nov 2026 09:00:00 +0000',
  uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}.json`,
  ...overrides,
})

/** One page of Twilio's message list. */
const listPage = (messages: unknown[], nextPageUri: string | null = null) => ({
  messages,
  first_page_uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json?PageSize=1000&Page=0`,
  next_page_uri: nextPageUri,
  previous_page_uri: null,
  page: 0,
  page_size: 1000,
  start: 0,
  end: Math.max(0, messages.length - 1),
  uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json?PageSize=1000&Page=0`,
})

const basicAuth = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`

/** The promise rejects with a ProviderError titled 'SMS provider error', retryable as given, the auth token nowhere in it. */
async function expectSmsRefusal(sending: Promise<unknown>, retryable: boolean): Promise<ProviderError> {
  const outcome = await sending.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
  if (outcome.ok) throw new Error(`expected a ProviderError, Twilio's call answered ${JSON.stringify(outcome.value)}`)
  expect(outcome.error).toBeInstanceOf(ProviderError)
  const error = outcome.error as ProviderError
  expect(error.title).toBe('SMS provider error')
  expect(error.retryable).toBe(retryable)
  expect(error.message.length).toBeGreaterThan(0)
  expect(error.message.length).toBeLessThanOrEqual(500)
  expect(error.message).not.toContain(AUTH_TOKEN)
  return error
}

describe('TwilioSmsSender.send', () => {
  test("posts From, To, Body and StatusCallback as a form to the account's Messages.json with Basic auth; answers the sid", async () => {
    const captured = captureRequests()
    msw.use(
      http.post(MESSAGES, async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json(twilioMessage('SM0123456789abcdef0123456789abcdef'), { status: 201 })
      }),
    )

    const result = await sender.send({ ...sms, statusCallbackUrl: STATUS_CALLBACK })

    expect(result).toEqual({ providerMessageId: 'SM0123456789abcdef0123456789abcdef' })
    expect(captured.all).toHaveLength(1)
    const request = captured.all[0]!
    expect(request.method).toBe('POST')
    expect(request.url.href).toBe(MESSAGES)
    expect(request.headers.get('authorization')).toBe(basicAuth)
    expect(request.headers.get('content-type')).toStartWith('application/x-www-form-urlencoded')
    const form = new URLSearchParams(request.body)
    expect(Object.fromEntries(form)).toEqual({ From: sms.from, To: sms.to, Body: sms.body, StatusCallback: STATUS_CALLBACK })
    // Each field once: the package shapes the request, the fetch client only carries it.
    expect([...form.keys()].sort()).toEqual(['Body', 'From', 'StatusCallback', 'To'])
  })

  test('leaves StatusCallback out when no callback URL is given', async () => {
    const captured = captureRequests()
    msw.use(
      http.post(MESSAGES, async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json(twilioMessage('SMnocallback'), { status: 201 })
      }),
    )
    expect(await sender.send(sms)).toEqual({ providerMessageId: 'SMnocallback' })
    expect(Object.fromEntries(new URLSearchParams(captured.all[0]!.body))).toEqual({ From: sms.from, To: sms.to, Body: sms.body })
  })

  test('with a base URL (TWILIO_API_BASE_URL) the same request goes there instead of api.twilio.com', async () => {
    const base = 'http://twilio-compatible.test:8080'
    const captured = captureRequests()
    msw.use(
      http.post(`${base}/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`, async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json(twilioMessage('SMlocal'), { status: 201 })
      }),
      http.all('https://api.twilio.com/*', () => {
        throw new Error('the real Twilio must not be called')
      }),
    )
    const local = new TwilioSmsSender(ACCOUNT_SID, AUTH_TOKEN, base)
    expect(await local.send(sms)).toEqual({ providerMessageId: 'SMlocal' })
    expect(captured.all).toHaveLength(1)
    expect(captured.all[0]!.headers.get('authorization')).toBe(basicAuth)
    expect(new URLSearchParams(captured.all[0]!.body).get('Body')).toBe(sms.body)
  })

  test.each([
    [400, 21211, "The 'To' number +15550002000 is not a valid phone number."],
    [401, 20003, 'Authenticate'],
    [404, 20404, 'The requested resource /2010-04-01/Accounts/AC.../Messages.json was not found'],
  ])("a %i is a non-retryable ProviderError naming Twilio's code and message", async (status, code, message) => {
    let requests = 0
    msw.use(
      http.post(MESSAGES, () => {
        requests += 1
        return HttpResponse.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status })
      }),
    )
    const error = await expectSmsRefusal(sender.send(sms), false)
    expect(error.message).toContain(String(status))
    expect(error.message).toContain(String(code))
    expect(error.message).toContain(message)
    // The adapter never retries by itself: the outbox decides.
    expect(requests).toBe(1)
  })

  test.each([
    [429, 20429, 'Too Many Requests'],
    [500, 20500, 'Internal Server Error'],
    [503, 20503, 'Service Unavailable'],
  ])('a %i is a retryable ProviderError', async (status, code, message) => {
    let requests = 0
    msw.use(
      http.post(MESSAGES, () => {
        requests += 1
        return HttpResponse.json({ code, message, status }, { status })
      }),
    )
    const error = await expectSmsRefusal(sender.send(sms), true)
    expect(error.message).toContain(String(status))
    expect(error.message).toContain(message)
    expect(requests).toBe(1)
  })

  test('a 502 with an HTML body (a proxy in the way) is a retryable ProviderError too', async () => {
    msw.use(
      http.post(
        MESSAGES,
        () => new HttpResponse('<html><body>Bad Gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      ),
    )
    const error = await expectSmsRefusal(sender.send(sms), true)
    expect(error.message).toContain('502')
  })

  test('a network error is a retryable ProviderError', async () => {
    msw.use(http.post(MESSAGES, () => HttpResponse.error()))
    const error = await expectSmsRefusal(sender.send(sms), true)
    expect(error.message).toContain('Twilio')
  })

  test("a long reason is cut short (Twilio's message is not trusted to be small)", async () => {
    msw.use(http.post(MESSAGES, () => HttpResponse.json({ code: 21617, message: 'x'.repeat(5000), status: 400 }, { status: 400 })))
    await expectSmsRefusal(sender.send(sms), false)
  })
})

describe('TwilioSmsSender.findSent', () => {
  const since = new Date('2026-11-22T08:55:00.000Z')

  test('lists the messages from→to and answers the sids of those created since the time given with exactly the body', async () => {
    const captured = captureRequests()
    msw.use(
      http.get(MESSAGES, async ({ request }) => {
        await captured.add(request)
        return HttpResponse.json(
          listPage([
            twilioMessage('SMsame1'),
            twilioMessage('SMother', { body: `${sms.body} (another text)` }),
            twilioMessage('SMsame2'),
            twilioMessage('SMcase', { body: sms.body.toUpperCase() }),
            twilioMessage('SMbefore', { date_created: 'Sun, 22 Nov 2026 08:54:59 +0000' }),
          ]),
        )
      }),
    )

    expect(await sender.findSent({ ...sms, since })).toEqual(['SMsame1', 'SMsame2'])

    expect(captured.all).toHaveLength(1)
    const request = captured.all[0]!
    expect(request.method).toBe('GET')
    expect(request.url.origin + request.url.pathname).toBe(MESSAGES)
    expect(request.headers.get('authorization')).toBe(basicAuth)
    expect(request.url.searchParams.get('From')).toBe(sms.from)
    expect(request.url.searchParams.get('To')).toBe(sms.to)
  })

  test('answers nothing when Twilio holds no such message', async () => {
    msw.use(http.get(MESSAGES, () => HttpResponse.json(listPage([]))))
    expect(await sender.findSent({ ...sms, since })).toEqual([])
  })

  test('follows the next pages, also through a base URL of its own', async () => {
    const base = 'http://twilio-compatible.test:8080'
    const path = `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`
    const pages: string[] = []
    msw.use(
      http.get(`${base}${path}`, ({ request }) => {
        const url = new URL(request.url)
        pages.push(url.searchParams.get('Page') ?? '0')
        if (url.searchParams.get('Page') === '1') return HttpResponse.json(listPage([twilioMessage('SMpage2')]))
        return HttpResponse.json(listPage([twilioMessage('SMpage1')], `${path}?PageSize=1000&Page=1&PageToken=PASMpage1`))
      }),
    )
    const local = new TwilioSmsSender(ACCOUNT_SID, AUTH_TOKEN, base)
    expect(await local.findSent({ ...sms, since })).toEqual(['SMpage1', 'SMpage2'])
    expect(pages).toEqual(['0', '1'])
  })

  test.each([
    [503, true],
    [429, true],
    [401, false],
  ])('a %i while listing is a ProviderError, retryable: %p', async (status, retryable) => {
    msw.use(http.get(MESSAGES, () => HttpResponse.json({ code: 20000 + status, message: 'refused', status }, { status })))
    await expectSmsRefusal(sender.findSent({ ...sms, since }), retryable)
  })

  test('a network error while listing is a retryable ProviderError', async () => {
    msw.use(http.get(MESSAGES, () => HttpResponse.error()))
    await expectSmsRefusal(sender.findSent({ ...sms, since }), true)
  })
})

describe('TwilioWebhookVerifier', () => {
  const verifier = new TwilioWebhookVerifier(AUTH_TOKEN)
  const url = 'https://intake.example.org/api/webhooks/twilio/sms'
  const params = { From: '+15550002000', To: '+15550001000', Body: 'STOP', MessageSid: 'SMinbound', AccountSid: ACCOUNT_SID }
  const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params)

  test("accepts Twilio's signature over the URL and the parameters", () => {
    expect(verifier.isAuthentic(url, params, signature)).toBe(true)
  })

  test('refuses a missing signature, another token, another URL or changed parameters', () => {
    expect(verifier.isAuthentic(url, params, undefined)).toBe(false)
    expect(verifier.isAuthentic(url, params, '')).toBe(false)
    expect(verifier.isAuthentic(url, params, twilio.getExpectedTwilioSignature('another-token', url, params))).toBe(false)
    expect(verifier.isAuthentic('http://127.0.0.1:3000/api/webhooks/twilio/sms', params, signature)).toBe(false)
    expect(verifier.isAuthentic(url, { ...params, Body: 'START' }, signature)).toBe(false)
    expect(verifier.isAuthentic(url, { ...params, Extra: 'x' }, signature)).toBe(false)
  })
})
