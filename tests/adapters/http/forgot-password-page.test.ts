import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { deliverUntil, getPage, fallbackEmailsTo, postForm } from './helpers'

// docs/api/pages.md "Pages": GET and POST /forgot-password, as a browser without JavaScript uses them.
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

const post = (fields: Record<string, string>, path = '/forgot-password', headers?: Record<string, string>) =>
  postForm(api, path, fields, headers)

async function staffEmail(): Promise<string> {
  const token = await api.tokenFor(api.world, 'staff')
  return (await api.call<{ email: string }>('GET', '/api/profile', { token })).body.email
}

describe('GET and POST /forgot-password', () => {
  test('a labelled email field; a known address is mailed a reset link, and the answer is the same for an unknown one', async () => {
    const page = await getPage(api, '/forgot-password')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.text).toContain('<label for="email">Email</label>')
    expect(page.text).toContain('action="/forgot-password"')

    const email = await staffEmail()
    const known = await post({ email })
    const unknown = await post({ email: 'nobody.here@example.org' })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(known.text).toBe(unknown.text)
    expect(known.text).not.toContain(email)
    const mail = await deliverUntil(
      api,
      () => fallbackEmailsTo(api, email).find((m) => m.subject.startsWith('Choose a new password')),
      `the reset email to ${email}`,
    )
    expect(mail.text).toContain('/reset-password?token=')
    expect(fallbackEmailsTo(api, 'nobody.here@example.org')).toEqual([])
  })

  test('an address that is not one comes back with the error next to the field, kept escaped', async () => {
    const refused = await post({ email: '"><script>x</script>' })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('id="email-error"')
    expect(refused.text).toContain('aria-invalid="true"')
    expect(refused.text).not.toContain('<script>x')
  })

  test('in Spanish from the browser or ?lang=es, which the form keeps', async () => {
    const byBrowser = await getPage(api, '/forgot-password', { 'accept-language': 'es' })
    expect(byBrowser.text).toContain('<html lang="es">')
    expect(byBrowser.text).toContain('¿Olvidó su contraseña?')
    const byQuery = await getPage(api, '/forgot-password?lang=es')
    expect(byQuery.text).toContain('action="/forgot-password?lang=es"')
    expect((await post({ email: 'nadie@example.org' }, '/forgot-password?lang=es')).text).toContain(
      'Si una cuenta usa este correo electrónico',
    )
  })

  test('a form posted from another site is refused (403 page) and sends nothing', async () => {
    const email = await staffEmail()
    const refused = await post({ email }, '/forgot-password', { 'sec-fetch-site': 'cross-site' })
    expect(refused.status).toBe(403)
    // Once the same form is posted from here, exactly one link is on its way: the refused post asked for none.
    expect((await post({ email })).status).toBe(200)
    const resets = () => fallbackEmailsTo(api, email).filter((m) => m.subject.startsWith('Choose a new password'))
    await deliverUntil(api, () => resets()[0], `the reset email to ${email}`)
    await api.call('GET', '/healthz')
    expect(resets()).toHaveLength(1)
  })

  test('a reset link that no longer works offers to ask for a new one', async () => {
    const page = await post({ token: 'no-such-token', password: 'a long enough passphrase' }, '/reset-password')
    expect(page.status).toBe(400)
    expect(page.text).toContain('href="/forgot-password"')
  })
})
