import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { getPage, postForm } from './helpers'

// docs/api/pages.md "Pages": the public intake form over real HTTP, posted as a browser without JavaScript would.

let api: TestServer
let adminToken: string
let slug: string

beforeAll(async () => {
  api = await startTestServer()
  adminToken = await api.tokenFor(api.world, 'org_admin')
  slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
})
afterAll(() => api.stop())

const SAME_ORIGIN: Record<string, string> = { 'sec-fetch-site': 'same-origin' }
const get = (path: string, headers?: Record<string, string>) => getPage(api, path, headers)
const post = (path: string, fields: Record<string, string>, headers = SAME_ORIGIN, server = api) => postForm(server, path, fields, headers)

async function needCount(): Promise<number> {
  return Number((await api.call('GET', '/api/needs?limit=1', { token: adminToken })).headers.get('x-total-count'))
}

const referenceIn = (text: string) => /class="reference">([A-Z]+-[0-9]+)</.exec(text)?.[1]

describe('GET /intake/{organizationSlug}', () => {
  test('a page of its own: the organization named, every field labelled, a CSP, a phone viewport, nothing from outside', async () => {
    const page = await get(`/intake/${slug}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toStartWith('text/html')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(page.text).toMatch(/<p class="organization">Org [0-9a-f]{8}<\/p>/)
    expect(page.text).toContain(`<form method="post" action="/intake/${slug}" novalidate>`)
    for (const field of [
      'description',
      'firstName',
      'lastName',
      'phone',
      'email',
      'addressStreet',
      'addressCity',
      'addressState',
      'addressZip',
      'preferredLanguage',
    ]) {
      expect(page.text).toContain(`<label for="${field}">`)
      expect(page.text).toContain(`id="${field}" name="${field}"`)
    }
    expect(page.text).toContain('<div class="hp" aria-hidden="true">')
    expect(page.text).not.toMatch(/https?:\/\//)
    expect(page.text).toContain(`<a href="/intake/${slug}?lang=es" lang="es" hreflang="es">Español</a>`)
  })

  test('Spanish from Accept-Language by its weights, and ?lang= wins over it', async () => {
    const spanish = await get(`/intake/${slug}`, { 'accept-language': 'fr-CA, es-MX;q=0.8, en;q=0.5' })
    expect(spanish.text).toContain('<html lang="es">')
    expect(spanish.text).toContain('<h1>Pida ayuda</h1>')
    expect(spanish.text).toContain('?lang=en" lang="en" hreflang="en">English</a>')
    // The form of a page chosen by the switch posts back with the choice.
    expect((await get(`/intake/${slug}?lang=es`)).text).toContain(`action="/intake/${slug}?lang=es"`)
    const english = await get(`/intake/${slug}?lang=en`, { 'accept-language': 'es' })
    expect(english.text).toContain('<html lang="en">')
    expect((await get(`/intake/${slug}?lang=xx`, { 'accept-language': 'de' })).text).toContain('<h1>Ask for help</h1>')
  })

  test('an unknown or impossible slug is a 404 page, also for a form posted to it', async () => {
    for (const path of ['/intake/no-such-organization', `/intake/${'x'.repeat(300)}`, '/intake/%3Cscript%3E']) {
      const page = await get(path)
      expect(page.status).toBe(404)
      expect(page.headers.get('content-type')).toStartWith('text/html')
      expect(page.text).toContain('There is no intake form at this address')
    }
    expect((await post('/intake/no-such-organization', { description: 'food' })).status).toBe(404)
  })
})

describe('POST /intake/{organizationSlug}', () => {
  test('a filled form is one need through the public intake, and the page shows its reference number', async () => {
    const done = await post(`/intake/${slug}`, {
      description: 'We need food for two children',
      firstName: 'Ana',
      lastName: 'Lopez',
      phone: '(503) 555-0101',
      email: '',
      addressState: 'ny',
      addressZip: '10001',
      preferredLanguage: 'Spanish',
      website: '',
    })
    expect(done.status).toBe(200)
    const reference = referenceIn(done.text)!
    expect(reference).toMatch(/^REQ-[0-9]+$/)
    expect(done.text).toContain('What happens next')
    const need = await api.call<{ customFields: Record<string, string> }>('GET', `/api/needs/${reference}`, { token: adminToken })
    expect(need.status).toBe(200)
    expect(need.body.customFields).toEqual({
      description: 'We need food for two children',
      firstName: 'Ana',
      lastName: 'Lopez',
      phone: '+15035550101',
      addressState: 'NY',
      addressZip: '10001',
      preferredLanguage: 'Spanish',
    })
  })

  test('without what the person needs, or with a bad field, the form comes back with each error next to its field and nothing is recorded', async () => {
    const before = await needCount()
    const empty = await post(`/intake/${slug}`, { description: '   ', firstName: '<b>Ana</b>' })
    expect(empty.status).toBe(400)
    expect(empty.text).toContain('<p class="error" id="description-error">Tell us what you need help with.</p>')
    expect(empty.text).toContain('aria-describedby="description-hint description-error"')
    expect(empty.text).toContain('value="&lt;b&gt;Ana&lt;/b&gt;"')

    const bad = await post(`/intake/${slug}?lang=es`, {
      description: 'rent',
      phone: '12',
      email: 'nope',
      addressState: 'ZZ',
      addressZip: '1234',
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('<html lang="es">')
    for (const field of ['phone', 'email', 'addressState', 'addressZip'])
      expect(bad.text).toContain(`<p class="error" id="${field}-error">Escriba`)
    expect(bad.text).not.toContain('id="description-error"')
    expect(bad.text).toContain('>rent</textarea>')
    expect(await needCount()).toBe(before)
  })

  test('whatever the body, the answer is a page and never a server error: too long, JSON, broken, not Unicode, empty', async () => {
    const before = await needCount()
    const long = await post(`/intake/${slug}`, { description: 'x'.repeat(5001) })
    expect(long.status).toBe(400)
    expect(long.text).toContain('<p class="error" id="description-error">This is too long: at most 5000 characters.</p>')
    for (const [contentType, body] of [
      ['application/json', '{"description":["food"],"website":{}}'],
      ['application/json', '{broken'],
      ['application/json', '{"description":"help \\ud800"}'],
      ['text/plain', ''],
      ['application/x-www-form-urlencoded', '=&&website=%ZZ'],
    ]) {
      const response = await fetch(`${api.url}/intake/${slug}`, {
        method: 'POST',
        headers: { 'content-type': contentType!, ...SAME_ORIGIN },
        body,
      })
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toStartWith('text/html')
    }
    expect(await needCount()).toBe(before)
  })

  test('a filled honeypot is refused openly and records nothing', async () => {
    const before = await needCount()
    const robot = await post(`/intake/${slug}`, { description: 'cheap pills', website: 'https://spam.example' })
    expect(robot.status).toBe(400)
    expect(robot.text).toContain('was not sent')
    expect(robot.text).not.toContain('spam.example')
    expect(await needCount()).toBe(before)
  })

  test('a form posted from another site is refused (403 page) and records nothing', async () => {
    const before = await needCount()
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
    ] as Record<string, string>[]) {
      const refused = await post(`/intake/${slug}`, { description: 'food' }, headers)
      expect(refused.status).toBe(403)
      expect(refused.headers.get('content-type')).toStartWith('text/html')
    }
    expect(await needCount()).toBe(before)
  })
})

describe('rate limits of the pages', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '2', AUTH_RATE_LIMIT: '1' })
  })
  afterAll(() => limited.stop())

  test('the form shares the API per-address limit, and past it answers an HTML 429 with Retry-After', async () => {
    const organizationSlug = (await limited.world.repositories.organizations.findById(limited.world.organizationId))!.slug
    expect((await limited.call('POST', '/api/needs/public', { body: { organizationSlug, description: 'food' } })).status).toBe(201)
    expect((await post(`/intake/${organizationSlug}`, { description: 'food' }, SAME_ORIGIN, limited)).status).toBe(200)
    const refused = await post(`/intake/${organizationSlug}?lang=es`, { description: 'food' }, SAME_ORIGIN, limited)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toStartWith('text/html')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.text).toContain('<h1>Demasiadas solicitudes</h1>')
  })

  test('the password pages answer an HTML 429 too', async () => {
    expect((await post('/reset-password', { token: 'x', password: 'whatever it is' }, SAME_ORIGIN, limited)).status).toBe(400)
    const refused = await post('/accept-invite', { token: 'x', password: 'whatever it is' }, SAME_ORIGIN, limited)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toStartWith('text/html')
    expect(refused.headers.get('retry-after')).not.toBeNull()
    expect(refused.text).toContain('<h1>Too many requests</h1>')
  })
})
