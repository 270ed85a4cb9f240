import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { startTestServer, type ApiResponse, type TestServer } from '../../support/http'

// Through the real HTTP server over a SQLite file: an organization's email key
// is answered masked, removed from provider refusals, sealed at rest and never logged. Postmark is msw.

const POSTMARK = 'https://api.postmarkapp.com/email'
/** The organization's stored key, distinctive enough that finding it anywhere is a leak. */
const STORED_KEY = 'pmk-STORED-6b1e0f9c-d4a2-4e8b-9f3c-LEAKCANARY'
/** A key proposed to the test endpoint, never stored. */
const PROPOSED_KEY = 'pmk-PROPOSED-0a7d3c55-8e21-44f0-b6aa-LEAKCANARY'
const KEYS = [STORED_KEY, PROPOSED_KEY]

interface PostmarkCall {
  token: string | null
  body: { From: string; To: string; Subject: string; TextBody: string; MessageStream: string }
}

const calls: PostmarkCall[] = []
let sequence = 0

/** Postmark as msw: a refusal for addresses starting with "refuse", one that echoes the token for "echo", else accepted. */
const msw = setupServer(
  http.post(POSTMARK, async ({ request }) => {
    const token = request.headers.get('x-postmark-server-token')
    const body = (await request.json()) as PostmarkCall['body']
    calls.push({ token, body })
    if (body.To.startsWith('refuse')) {
      return HttpResponse.json(
        { ErrorCode: 406, Message: 'You tried to send to recipient(s) that have been marked as inactive.' },
        { status: 422 },
      )
    }
    if (body.To.startsWith('echo')) {
      return HttpResponse.json({ ErrorCode: 10, Message: `The server token ${token} was not recognized.` }, { status: 401 })
    }
    return HttpResponse.json({ To: body.To, MessageID: `pm-msg-${++sequence}`, ErrorCode: 0, Message: 'OK' })
  }),
)

let api: TestServer
let token: string

beforeAll(async () => {
  // The test client's own requests to the local server go through untouched.
  msw.listen({ onUnhandledRequest: 'bypass' })
  api = await startTestServer({ OUTBOX_POLL_MS: '20' })
  token = await api.tokenFor(api.world, 'org_admin')
})
afterEach(() => {
  calls.length = 0
})
afterAll(async () => {
  await api?.stop()
  msw.close()
})

const putSettings = (apiKey = STORED_KEY, fromEmail = 'desk@example.org') =>
  api.call('PUT', '/api/organizations/settings/email', { token, body: { provider: 'postmark', apiKey, fromEmail, fromName: 'Help Desk' } })

const sendTest = (toEmail: string, apiKey = PROPOSED_KEY) =>
  api.call('POST', '/api/organizations/settings/email/test', {
    token,
    body: { provider: 'postmark', apiKey, fromEmail: 'trial@example.org', toEmail },
  })

const invite = (email: string) => api.call('POST', '/api/members', { token, body: { email, role: 'staff' } })

function expectNoKey(response: ApiResponse) {
  const text = JSON.stringify(response.body)
  for (const key of KEYS) expect(text).not.toContain(key)
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(10)
  }
}

describe('email settings over HTTP', () => {
  test('PUT and GET answer the settings masked: the last four characters of the key, never the key', async () => {
    const put = await putSettings()
    expect(put.status).toBe(200)
    expect(put.body).toEqual({
      provider: 'postmark',
      fromEmail: 'desk@example.org',
      fromName: 'Help Desk',
      apiKeyLast4: 'NARY',
      updatedAt: expect.any(String),
    })
    expectNoKey(put)

    const get = await api.call('GET', '/api/organizations/settings/email', { token })
    expect(get.status).toBe(200)
    expect(get.body).toEqual(put.body)
    expectNoKey(get)
  })

  test('the test endpoint sends one message with the proposed settings and answers its id', async () => {
    const response = await sendTest('someone@example.net')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ delivered: true, messageId: expect.stringMatching(/^pm-msg-\d+$/) })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.token).toBe(PROPOSED_KEY)
    expect(calls[0]!.body).toMatchObject({ From: 'trial@example.org', To: 'someone@example.net' })
  })

  test('the test endpoint stores nothing', async () => {
    await putSettings()
    const before = await api.call('GET', '/api/organizations/settings/email', { token })
    expect((await sendTest('someone@example.net')).status).toBe(200)
    const after = await api.call('GET', '/api/organizations/settings/email', { token })
    expect(after.body).toEqual(before.body)
  })

  test("a provider refusal on the test endpoint is 502 with 'Failed to send email' and the reason", async () => {
    const response = await sendTest('refuse@example.net')
    expect(response.status).toBe(502)
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    expect(response.body).toMatchObject({ status: 502, title: 'Bad gateway' })
    expect(response.body.detail).toStartWith('Failed to send email: ')
    expect(response.body.detail).toContain('Postmark')
    expect(response.body.detail).toContain('marked as inactive')
    expectNoKey(response)
  })

  test('a refusal that echoes the key answers the reason with the key removed', async () => {
    const response = await sendTest('echo@example.net')
    expect(response.status).toBe(502)
    expect(response.body).toMatchObject({ status: 502, title: 'Bad gateway' })
    expect(response.body.detail).toContain('The server token *** was not recognized')
    expectNoKey(response)
  })

  test("an invitation is sent by the outbox worker through the organization's Postmark settings", async () => {
    expect((await putSettings()).status).toBe(200)
    const response = await invite('new-staff@example.net')
    expect(response.status).toBe(201)

    const sent = await until(() => calls.find((c) => c.body.To === 'new-staff@example.net'), 'the invitation to reach Postmark')
    expect(sent.token).toBe(STORED_KEY)
    expect(sent.body.From).toBe('"Help Desk" <desk@example.org>')
    expect(sent.body.MessageStream).toBe('outbound')
    expect(sent.body.TextBody).toContain('/accept-invite?token=')
  })
})

describe('the email key never leaks', () => {
  test('it is in neither the database files nor the logs, after every path that handles it', async () => {
    // Store it, use it for the test endpoint (accepted and refused with an echo), and send through the
    // outbox: accepted, refused for good, and refused with the key echoed back.
    expect((await putSettings()).status).toBe(200)
    expect((await sendTest('someone@example.net', STORED_KEY)).status).toBe(200)
    expect((await sendTest('echo@example.net', STORED_KEY)).status).toBe(502)
    expect((await sendTest('echo@example.net')).status).toBe(502)
    const invitees = ['accepted@example.net', 'refused@example.net', 'echo-me@example.net']
    for (const email of invitees) expect((await invite(email)).status).toBe(201)
    const sent = await until(() => {
      const found = invitees.map((email) => calls.find((c) => c.body.To === email))
      return found.every(Boolean) ? found : undefined
    }, 'the three invitations to reach Postmark')
    expect(sent.map((c) => c!.token)).toEqual([STORED_KEY, STORED_KEY, STORED_KEY])
    // Both refusals fail for good (422 and 401 are not retried) and are logged with their reasons.
    const failures = await until(() => {
      const found = api.logs.filter((line) => line.includes('outbox message failed for good'))
      return found.length >= 2 ? found : undefined
    }, 'both refused invitations to be recorded')
    expect(failures.join('\n')).toContain('The server token *** was not recognized')

    // Everything stored: on SQLite the main file and its write-ahead log, where the latest writes still are.
    const stored = await api.storedBytes()
    if (api.sqlitePath) expect(stored.length).toBeGreaterThanOrEqual(2)
    const everything = Buffer.concat(stored)
    // The grep can see what is there: the invitees, the stored reasons and the key's masked tail.
    expect(everything.includes('echo-me@example.net')).toBe(true)
    expect(everything.includes('The server token *** was not recognized')).toBe(true)
    expect(everything.includes('marked as inactive')).toBe(true)
    for (const key of KEYS) {
      for (const [index, bytes] of stored.entries())
        expect({ part: index, leaked: bytes.includes(key) }).toEqual({ part: index, leaked: false })
      // Nor a recognizable part of it, the last four characters aside.
      expect(everything.includes(key.slice(0, -4))).toBe(false)
    }

    const logs = api.logs.join('\n')
    expect(logs.length).toBeGreaterThan(0)
    for (const key of KEYS) {
      expect(logs).not.toContain(key)
      expect(logs).not.toContain(key.slice(0, -4))
    }
  })
})
