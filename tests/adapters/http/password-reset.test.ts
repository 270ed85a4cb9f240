import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import { PORTS } from '../../../src/main/container'
import { TEST_PASSWORD } from '../../support/world'
import { startTestServer, type TestServer } from '../../support/http'
import { deliverUntil, expectBadRequest, expectProblem, fallbackEmailsTo } from './helpers'

// docs/api/access.md "Tokens": a forgotten password over real HTTP, the email read from the fallback.

const BASE_URL = 'https://app.example.test'
const NEW_PASSWORD = 'a brand new long passphrase'

let api: TestServer
let email: string

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL })
  // A staff member who logs in with TEST_PASSWORD; its email is the one its token names.
  const token = await api.tokenFor(api.world, 'staff')
  const profile = await api.call('GET', '/api/profile', { token })
  email = profile.body.email
})
afterAll(() => api.stop())

const ask = (body: unknown) => api.call('POST', '/api/auth/password-reset', { body })
const reset = (body: unknown) => api.call('POST', '/api/auth/reset-password', { body })

/** The reset link of the newest reset email to `to`. */
async function resetLinkTo(to: string): Promise<URL> {
  const message = await deliverUntil(
    api,
    () =>
      fallbackEmailsTo(api, to)
        .filter((m) => m.subject.startsWith('Choose a new password'))
        .at(-1),
    `the reset email to ${to}`,
  )
  return new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(message.text)![0])
}

describe('POST /api/auth/password-reset and /api/auth/reset-password', () => {
  test('the same 202 for a known and an unknown email, with the rate-limit fields', async () => {
    const known = await ask({ email })
    const unknown = await ask({ email: 'nobody@example.org' })
    for (const response of [known, unknown]) {
      expect({ status: response.status, body: response.body }).toEqual({ status: 202, body: { status: 'accepted' } })
      expect(response.headers.get('ratelimit-policy')).toBeString()
    }
  })

  test('the emailed link resets the password once, ends the other sessions and logs in', async () => {
    const before = await api.login(email)
    expect((await ask({ email: email.toUpperCase() })).status).toBe(202)
    const link = await resetLinkTo(email)
    expect(`${link.origin}${link.pathname}`).toBe(`${BASE_URL}/reset-password`)
    const token = link.searchParams.get('token')!

    const done = await reset({ token, password: NEW_PASSWORD })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ tokenType: 'Bearer' })
    expectProblem(await api.call('GET', '/api/profile', { token: before }), 401, 'Unauthorized')
    expect((await api.call('GET', '/api/profile', { token: done.body.accessToken })).status).toBe(200)
    expectProblem(await api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } }), 401, 'Unauthorized')
    expect((await api.call('POST', '/api/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(200)

    expectBadRequest(await reset({ token, password: 'yet another passphrase' }), '/token')
  })

  test('bad input is a 400 naming the field', async () => {
    expectBadRequest(await ask({ email: 'not an email' }), '/email')
    expectBadRequest(await ask({ email, appUrl: 'javascript:alert(1)' }), '/appUrl')
    expectBadRequest(await reset({ token: 'x', password: 'short' }), '/password')
    expectBadRequest(await reset({ token: 'not-a-token-anyone-was-sent', password: NEW_PASSWORD }), '/token')
  })
})

describe('reset mails per member (PASSWORD_RESET_MAILS_PER_HOUR, 2 here)', () => {
  let limited: TestServer
  beforeAll(async () => {
    // The test sends what is queued itself: a worker of the server's own could hold a mail, claimed but not yet sent, as it counts.
    limited = await startTestServer({ PUBLIC_BASE_URL: BASE_URL, PASSWORD_RESET_MAILS_PER_HOUR: '2', SERVE_RUNS_WORKER: 'false' })
  })
  afterAll(() => limited.stop())

  test('past the limit a request still answers 202 and sends nothing more; an hour later a link is sent again', async () => {
    const token = await limited.tokenFor(limited.world, 'staff')
    const to = (await limited.call('GET', '/api/profile', { token })).body.email
    /** Every reset mail to the member, once what the requests left has run and the outbox is empty. */
    const resetMails = async () => {
      await limited.server.container.get(PORTS.deferredWork).settled()
      while ((await limited.server.container.get(DispatchOutbox).runOnce()) > 0);
      return fallbackEmailsTo(limited, to).filter((m) => m.subject.startsWith('Choose a new password'))
    }
    for (let i = 0; i < 4; i++) {
      const answer = await limited.call('POST', '/api/auth/password-reset', { body: { email: to } })
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 202, body: { status: 'accepted' } })
    }
    expect(await resetMails()).toHaveLength(2)

    limited.world.clock.advance(60 * 60_000)
    expect((await limited.call('POST', '/api/auth/password-reset', { body: { email: to } })).status).toBe(202)
    expect(await resetMails()).toHaveLength(3)
  })
})
