import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TEST_PASSWORD } from '../../support/world'
import { startTestServer, type TestServer } from '../../support/http'
import { deliverUntil, expectProblem, getPage, invitationIn, fallbackEmailsTo, fallbackInvitationTo, postForm } from './helpers'

// docs/api/pages.md "Pages": the /reset-password and /accept-invite pages over real HTTP, forms posted as a browser
// without JavaScript would.

const NEW_PASSWORD = 'a brand new long passphrase'

let api: TestServer
let adminToken: string

beforeAll(async () => {
  api = await startTestServer()
  adminToken = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

const get = (path: string) => getPage(api, path)
const post = (path: string, fields: Record<string, string>, headers?: Record<string, string>) => postForm(api, path, fields, headers)

async function resetTokenFor(email: string): Promise<string> {
  expect((await api.call('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202)
  const message = await deliverUntil(
    api,
    () =>
      fallbackEmailsTo(api, email)
        .filter((m) => m.subject.startsWith('Choose a new password'))
        .at(-1),
    `the reset email to ${email}`,
  )
  return new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(message.text)![0]).searchParams.get('token')!
}

async function staffEmail(): Promise<string> {
  const token = await api.tokenFor(api.world, 'staff')
  return (await api.call<{ email: string }>('GET', '/api/profile', { token })).body.email
}

describe('GET and POST /reset-password', () => {
  test('the page is HTML with a CSP, its own stylesheet and the token only in the hidden field', async () => {
    const token = await resetTokenFor(await staffEmail())
    const page = await get(`/reset-password?token=${encodeURIComponent(token)}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toStartWith('text/html')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.text).toContain('<link rel="stylesheet" href="/assets/pages.css">')
    expect(page.text.split(token).length - 1).toBe(1)
    expect(page.text).toContain(`<input type="hidden" name="token" value="${token}">`)
    expect(page.text).not.toMatch(/https?:\/\//)
    const css = await fetch(`${api.url}/assets/pages.css`)
    expect(css.headers.get('content-type')).toStartWith('text/css')
  })

  test('a short password shows the error next to the field; a good one resets once and says where to go', async () => {
    const email = await staffEmail()
    const token = await resetTokenFor(email)
    const short = await post('/reset-password', { token, password: 'short' })
    expect(short.status).toBe(400)
    expect(short.text).toContain('id="password-error"')
    expect(short.text).not.toContain('short"')

    const done = await post('/reset-password', { token, password: NEW_PASSWORD })
    expect(done.status).toBe(200)
    expect(done.text).toContain('log in with the new password')
    expect(done.text).not.toContain(NEW_PASSWORD)
    expect((await api.call('POST', '/api/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(200)
    expectProblem(await api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } }), 401, 'Unauthorized')

    const again = await post('/reset-password', { token, password: 'yet another passphrase' })
    expect(again.status).toBe(400)
    expect(again.text).toContain('unknown, already used or expired')
  })

  test('a form posted from another site is refused and changes nothing', async () => {
    const email = await staffEmail()
    const token = await resetTokenFor(email)
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }] as Record<string, string>[]) {
      expect((await post('/reset-password', { token, password: NEW_PASSWORD }, headers)).status).toBe(403)
    }
    expect((await api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } })).status).toBe(200)
  })

  test('whatever is put in the token is escaped, and no token is a 400 page', async () => {
    const page = await get(`/reset-password?token=${encodeURIComponent('"><script>alert(1)</script>')}`)
    expect(page.text).not.toContain('<script>')
    expect(page.text).toContain('&quot;&gt;&lt;script&gt;')
    expect((await get('/reset-password')).status).toBe(400)
  })
})

describe('the password pages in Spanish', () => {
  test("from the browser's language, or ?lang=es, which the form keeps for its answer", async () => {
    const token = await resetTokenFor(await staffEmail())
    const byBrowser = await getPage(api, `/reset-password?token=${encodeURIComponent(token)}`, {
      'accept-language': 'es-US,es;q=0.9,en;q=0.5',
    })
    expect(byBrowser.text).toContain('<html lang="es">')
    expect(byBrowser.text).toContain('<h1>Elija una nueva contraseña</h1>')
    expect(byBrowser.text).toContain('action="/reset-password"')
    const byQuery = await get(`/reset-password?lang=es&token=${encodeURIComponent(token)}`)
    expect(byQuery.text).toContain('action="/reset-password?lang=es"')
    const refused = await post('/reset-password?lang=es', { token, password: 'short' })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Esta contraseña no es válida')
  })
})

describe('GET and POST /accept-invite', () => {
  async function invite(body: Record<string, string> = {}) {
    const email = `invited-${crypto.randomUUID()}@example.org`
    expect((await api.call('POST', '/api/members', { token: adminToken, body: { email, role: 'staff', ...body } })).status).toBe(201)
    return { email, ...invitationIn((await fallbackInvitationTo(api, email)).text) }
  }
  const organizationName = async () =>
    (await api.call<{ name: string }>('GET', '/api/organizations/settings', { token: adminToken })).body.name

  test('the page names the organization and the address invited; saving the password opens the console, logged in', async () => {
    const { email, link, token } = await invite()
    const url = new URL(link)
    expect(url.pathname).toBe('/accept-invite')

    const page = await get(`${url.pathname}${url.search}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('action="/accept-invite"')
    expect(page.text).toContain(`${await organizationName()} invited ${email}.`)
    // Looking at the page does not use the link up.
    expect((await get(`${url.pathname}${url.search}`)).status).toBe(200)

    const done = await postForm(api, '/accept-invite', { token, password: NEW_PASSWORD }, { 'sec-fetch-site': 'same-origin' }, 'manual')
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/?lang=en')
    // The console's first call trades the cookie for an access token: the member is in, with no second login.
    const cookie = done.headers.get('set-cookie')!
    expect(cookie).toMatch(/^intake_refresh=[^;]+; Path=\/api\/auth\/session; HttpOnly; SameSite=Strict/)
    const session = await api.call<{ accessToken: string }>('POST', '/api/auth/session/refresh', {
      headers: { cookie: cookie.split(';')[0]!, 'content-type': 'application/json' },
    })
    expect(session.status).toBe(200)
    const profile = await api.call<{ email: string }>('GET', '/api/profile', { token: session.body.accessToken })
    expect(profile.body.email).toBe(email)
    expect((await api.call('POST', '/api/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(200)
  })

  test("in the invitation's language unless ?lang= says otherwise, with a switch that keeps the link", async () => {
    const { link, token } = await invite({ language: 'es' })
    const url = new URL(link)
    const page = await get(`${url.pathname}${url.search}`)
    expect(page.text).toContain('<html lang="es">')
    expect(page.text).toContain('action="/accept-invite?lang=es"')
    expect(page.text).toContain(`href="/accept-invite?token=${encodeURIComponent(token)}&amp;lang=en"`)
    const english = await get(`${url.pathname}${url.search}&lang=en`)
    expect(english.text).toContain('<html lang="en">')
    const done = await postForm(api, '/accept-invite?lang=es', { token, password: NEW_PASSWORD }, undefined, 'manual')
    expect(done.headers.get('location')).toBe('/?lang=es')
  })

  test('a link used, or unknown, says so at once: no form to fill in vain', async () => {
    const { link, token } = await invite()
    const url = new URL(link)
    expect((await postForm(api, '/accept-invite', { token, password: NEW_PASSWORD }, undefined, 'manual')).status).toBe(303)
    for (const path of [`${url.pathname}${url.search}`, '/accept-invite?token=no-such-token']) {
      const page = await get(path)
      expect(page.status).toBe(400)
      expect(page.text).toContain('This invitation is unknown, already used or expired')
      expect(page.text).not.toContain('<form')
    }
  })
})
