import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { deliverUntil, expectBadRequest, invitationIn, fallbackEmailsTo } from './helpers'

// docs/api/access.md "Tokens", "Members and invitations": every email that carries a one-time link, over real HTTP
// (SQLite, and PostgreSQL with TEST_DATABASE=postgres), read from the fallback. A link leads to
// PUBLIC_BASE_URL, or for invitations to an appUrl on an origin the organization lists; nobody else steers it.

const BASE_URL = 'https://intake.example.test'
const APP = 'https://staff-app.example.test'
/** What an attacker would like a link to lead to, and the headers a proxy might pass on. */
const EVIL = 'https://evil.example'
const STEERING_HEADERS = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example;proto=https' }

let api: TestServer
let admin: string
let otherAdmin: string
let staffEmail: string

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL })
  const other = await api.world.otherOrganization()
  ;[admin, otherAdmin] = await Promise.all([api.tokenFor(api.world, 'org_admin'), api.tokenFor(other, 'org_admin')])
  staffEmail = (await api.call('GET', '/api/profile', { token: await api.tokenFor(api.world, 'staff') })).body.email
  // The other organization's app is no app of this one.
  expect((await api.call('PUT', '/api/organizations/settings', { token: otherAdmin, body: { appOrigins: [EVIL] } })).status).toBe(200)
})
afterAll(() => api.stop())

const uniqueEmail = () => `invited-${crypto.randomUUID().slice(0, 8)}@example.org`
const setAppOrigins = async (appOrigins: string[]) =>
  expect((await api.call('PUT', '/api/organizations/settings', { token: admin, body: { appOrigins } })).status).toBe(200)

/** The one-time link of the `nth` email (from 0) to `to`, once the outbox sent it. */
async function linkTo(to: string, nth = 0): Promise<URL> {
  const message = await deliverUntil(api, () => fallbackEmailsTo(api, to)[nth], `email ${nth} to ${to}`)
  const match = /\S+\/(accept-invite|reset-password)\?token=\S+/.exec(message.text)
  if (!match) throw new Error(`no one-time link in: ${message.text}`)
  return new URL(match[0])
}

/** Sends the outbox and answers how many emails went to `to`. */
async function emailsTo(to: string): Promise<number> {
  await deliverUntil(api, () => true)
  return fallbackEmailsTo(api, to).length
}

describe('the password reset email', () => {
  test("links to PUBLIC_BASE_URL's /reset-password, whatever headers the anonymous caller sends", async () => {
    const before = await emailsTo(staffEmail)
    expect((await api.call('POST', '/api/auth/password-reset', { body: { email: staffEmail }, headers: STEERING_HEADERS })).status).toBe(
      202,
    )
    const link = await linkTo(staffEmail, before)
    expect(`${link.origin}${link.pathname}`).toBe(`${BASE_URL}/reset-password`)
    expect(link.searchParams.get('token')).toBeString()
  })

  test('an appUrl (which this route once took) is 400 naming /appUrl, and no email goes out, even on an allowed app origin', async () => {
    await setAppOrigins([APP])
    const before = await emailsTo(staffEmail)
    for (const appUrl of [`${EVIL}/steal`, APP, BASE_URL]) {
      const refused = expectBadRequest(
        await api.call('POST', '/api/auth/password-reset', { body: { email: staffEmail, appUrl } }),
        '/appUrl',
      )
      expect(refused.errors!.find((e) => e.path === '/appUrl')!.message).toBe('is not a field of this request')
    }
    expect(await emailsTo(staffEmail)).toBe(before)
  })
})

describe('the invitation email (POST /api/members) and its resend (POST /api/members/{id}/invitation)', () => {
  const invite = (body: Record<string, unknown>) => api.call('POST', '/api/members', { token: admin, body: { role: 'staff', ...body } })
  const resend = (id: string, body?: unknown) => api.call('POST', `/api/members/${id}/invitation`, { token: admin, body })

  test('link to PUBLIC_BASE_URL when no appUrl is given', async () => {
    const email = uniqueEmail()
    const invited = await invite({ email })
    expect(invited.status).toBe(201)
    expect((await linkTo(email)).href).toStartWith(`${BASE_URL}/accept-invite?token=`)
    expect((await resend(invited.body.id)).status).toBe(200)
    expect((await linkTo(email, 1)).href).toStartWith(`${BASE_URL}/accept-invite?token=`)
  })

  test('reach nobody without email settings: the log names the outbox message and holds neither the address nor the token', async () => {
    const email = uniqueEmail()
    expect((await invite({ email })).status).toBe(201)
    const { token } = invitationIn((await deliverUntil(api, () => fallbackEmailsTo(api, email)[0])).text)
    const written = api.logs.join('\n')
    for (const secret of [email, token, 'accept-invite?token', 'You are invited']) expect(written).not.toContain(secret)
    const traces = api.logs.map((line) => JSON.parse(line)).filter((line) => line.outboxId === fallbackEmailsTo(api, email)[0]!.outboxId)
    expect(traces).toEqual([expect.objectContaining({ template: 'invitation', length: expect.any(Number) })])
  })

  test('link to an appUrl on a listed origin, or on PUBLIC_BASE_URL’s own', async () => {
    await setAppOrigins([APP])
    const email = uniqueEmail()
    const invited = await invite({ email, appUrl: `${APP}/join/` })
    expect(invited.status).toBe(201)
    expect((await linkTo(email)).href).toStartWith(`${APP}/join/accept-invite?token=`)
    expect((await resend(invited.body.id, { appUrl: `${BASE_URL}/staff` })).status).toBe(200)
    expect((await linkTo(email, 1)).href).toStartWith(`${BASE_URL}/staff/accept-invite?token=`)
    // The token of a link on the app accepts the invitation like any other.
    const token = invitationIn(fallbackEmailsTo(api, email)[0]!.text).token
    expect((await api.call('POST', '/api/auth/accept-invite', { body: { token, password: 'a long enough password' } })).status).toBe(200)
  })

  test.each([
    ['an origin nobody listed', `${EVIL}/steal`],
    ['a listed host over http', 'http://staff-app.example.test'],
    ['a listed host on another port', 'https://staff-app.example.test:8443'],
  ])('%s is 400 naming /appUrl: no member, no email', async (_name, appUrl) => {
    await setAppOrigins([APP])
    const email = uniqueEmail()
    const refused = expectBadRequest(await invite({ email, appUrl }), '/appUrl')
    expect(refused.errors!.find((e) => e.path === '/appUrl')!.message).toContain('appOrigins')
    const members = await api.call<Array<{ email: string }>>('GET', '/api/members?limit=100', { token: admin })
    expect(members.body.map((m) => m.email)).not.toContain(email)
    expect(await emailsTo(email)).toBe(0)
  })

  test.each([
    ['a listed host, a backslash, then another host', 'https://staff-app.example.test\\@evil.example', 'backslash'],
    ['a listed host after credentials', 'https://user:pw@staff-app.example.test/', 'user or password'],
    ['a listed host as credentials before another host', 'https://staff-app.example.test@evil.example', 'user or password'],
    ['a listed host with a fragment', 'https://staff-app.example.test/#x', 'fragment'],
    ['a listed host with a query', 'https://staff-app.example.test/?next=https://evil.example', 'query'],
    ['a listed host under a scheme in capitals', 'HTTPS://staff-app.example.test', 'starting with http://'],
  ])('%s is 400 naming /appUrl (%s): no member, no email; a resend too', async (_name, appUrl, words) => {
    await setAppOrigins([APP])
    const email = uniqueEmail()
    const refused = expectBadRequest(await invite({ email, appUrl }), '/appUrl')
    expect(refused.errors!.find((e) => e.path === '/appUrl')!.message).toContain(words)
    const invited = await invite({ email })
    expectBadRequest(await resend(invited.body.id, { appUrl }), '/appUrl')
    // The worker may be sending the invitation at this moment: it arrives, and it alone.
    expect((await linkTo(email)).origin).toBe(BASE_URL)
    expect(await emailsTo(email)).toBe(1)
  })

  test('the link is written from the parsed appUrl: its host, however it is read, is the listed one', async () => {
    await setAppOrigins([APP])
    const email = uniqueEmail()
    expect((await invite({ email, appUrl: 'https://Staff-App.EXAMPLE.test:443/join' })).status).toBe(201)
    const link = await linkTo(email)
    expect(link.href).toStartWith(`${APP}/join/accept-invite?token=`)
    // The text in the mail, not only what a WHATWG parser makes of it.
    const text = fallbackEmailsTo(api, email)[0]!.text
    expect(text).toContain(`${APP}/join/accept-invite?token=`)
    expect(text).not.toContain('Staff-App')
  })

  test('a resend to an origin no longer listed is 400 naming /appUrl, and nothing is sent', async () => {
    await setAppOrigins([APP])
    const email = uniqueEmail()
    const invited = await invite({ email, appUrl: APP })
    expect(invited.status).toBe(201)
    await setAppOrigins([])
    expectBadRequest(await resend(invited.body.id, { appUrl: APP }), '/appUrl')
    expectBadRequest(await resend(invited.body.id, { appUrl: EVIL }), '/appUrl')
    expect(await emailsTo(email)).toBe(1)
  })
})
