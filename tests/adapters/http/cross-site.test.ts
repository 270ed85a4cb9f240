import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { ROUTES } from '../../support/routes'
import { TEST_PASSWORD } from '../../support/world'
import { deliverUntil, expectProblem, fallbackEmailsTo, postForm } from './helpers'

// docs/api/access.md "Requests from other sites": the anonymous writes refuse what another site's page made a
// browser send, over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres). Browsers say it in
// Sec-Fetch-Site and Origin; clients without them (curl, servers) are no other site's page.

const BASE_URL = 'https://intake.example.test'
const PARTNER = 'https://pantry-partner.example.net'
const EVIL = 'https://evil.example'

/** What browsers send from another site's page: the modern pair, an older browser's Origin alone, a hidden origin, a sibling site. */
const FROM_ANOTHER_SITE: Array<[string, Record<string, string>]> = [
  ['Sec-Fetch-Site cross-site with its Origin', { 'sec-fetch-site': 'cross-site', origin: EVIL }],
  ['Sec-Fetch-Site cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
  ['Sec-Fetch-Site same-site (a sibling host)', { 'sec-fetch-site': 'same-site', origin: 'https://blog.intake.example.test' }],
  ['a foreign Origin alone (an older browser)', { origin: EVIL }],
  ['Origin null (a sandboxed page)', { origin: 'null' }],
]
/** What the service's own pages and non-browsers send. */
const FROM_OWN_SITE: Array<[string, Record<string, string>]> = [
  ['no browser headers at all (curl, a server)', {}],
  ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin', origin: BASE_URL }],
  ["an older browser's Origin naming PUBLIC_BASE_URL", { origin: BASE_URL }],
]

let api: TestServer
let slug: string
let otherSlug: string
let admin: string
let staffEmail: string

beforeAll(async () => {
  // Every request here comes from one address: the intake's own limit is tested elsewhere.
  api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL, PUBLIC_INTAKE_RATE_LIMIT: '1000000' })
  admin = await api.tokenFor(api.world, 'org_admin')
  staffEmail = (await api.call('GET', '/api/profile', { token: await api.tokenFor(api.world, 'staff') })).body.email
  slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
  const other = await api.world.otherOrganization()
  otherSlug = (await api.world.repositories.organizations.findById(other.organizationId))!.slug
  // This organization lets its partner's site post its intake; the other lists nobody.
  expect((await api.call('PUT', '/api/organizations/settings', { token: admin, body: { formOrigins: [PARTNER] } })).status).toBe(200)
})
afterAll(() => api.stop())

async function needCount(): Promise<number> {
  return Number((await api.call('GET', '/api/needs?limit=1', { token: admin })).headers.get('x-total-count'))
}
const intake = (headers: Record<string, string>, organizationSlug = slug) =>
  api.call('POST', '/api/needs/public', { body: { organizationSlug, description: 'food for two' }, headers })

describe('POST /api/needs/public', () => {
  test.each(FROM_ANOTHER_SITE)('%s is 403, counted by the rate limit, and records nothing', async (_name, headers) => {
    const before = await needCount()
    const refused = await intake(headers)
    expect(expectProblem(refused, 403, 'Forbidden').detail).toContain('formOrigins')
    expect(refused.headers.get('ratelimit')).toBeString()
    expect(await needCount()).toBe(before)
  })

  test('a text/plain post from another site (no CORS preflight) is refused too: 415, a JSON route takes JSON alone', async () => {
    const before = await needCount()
    const body = JSON.stringify({ organizationSlug: slug, description: 'food' })
    const refused = await api.call('POST', '/api/needs/public', {
      raw: body,
      headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site', origin: EVIL },
    })
    expectProblem(refused, 415, 'Unsupported media type')
    expect(await needCount()).toBe(before)
  })

  test.each(FROM_OWN_SITE)('%s is taken', async (_name, headers) => {
    expect((await intake(headers)).status).toBe(201)
  })

  test("an older browser's Origin naming the host it reached (not PUBLIC_BASE_URL's) is the service's own", async () => {
    expect(new URL(api.url).origin).not.toBe(BASE_URL)
    expect((await intake({ origin: new URL(api.url).origin })).status).toBe(201)
    expectProblem(await intake({ origin: 'http://127.0.0.2:9' }), 403, 'Forbidden')
  })

  test("a page on a partner site in the organization's formOrigins is taken; for another organization it is 403", async () => {
    const partnerPage = { 'sec-fetch-site': 'cross-site', origin: PARTNER }
    expect((await intake(partnerPage)).status).toBe(201)
    expectProblem(await intake(partnerPage, otherSlug), 403, 'Forbidden')
    // Listed with another port or over http, it is another origin.
    expectProblem(await intake({ 'sec-fetch-site': 'cross-site', origin: `${PARTNER}:8443` }), 403, 'Forbidden')
    expectProblem(await intake({ origin: PARTNER.replace('https:', 'http:') }), 403, 'Forbidden')
  })
})

describe('POST /intake/{organizationSlug} (the page)', () => {
  test('a form posted from a site the organization does not list is a 403 page, and records nothing', async () => {
    const before = await needCount()
    for (const [, headers] of FROM_ANOTHER_SITE) {
      const refused = await postForm(api, `/intake/${slug}`, { description: 'food' }, headers)
      expect(refused.status).toBe(403)
      expect(refused.headers.get('content-type')).toStartWith('text/html')
      expect(refused.text).toContain('must be sent from this site')
    }
    expect(await needCount()).toBe(before)
  })

  test("a form on a partner site in the organization's formOrigins is taken; the same form for another organization is refused", async () => {
    const partnerPage = { 'sec-fetch-site': 'cross-site', origin: PARTNER }
    const taken = await postForm(api, `/intake/${slug}`, { description: 'food' }, partnerPage)
    expect(taken.status).toBe(200)
    expect(taken.text).toContain('class="reference"')
    expect((await postForm(api, `/intake/${otherSlug}`, { description: 'food' }, partnerPage)).status).toBe(403)
  })
})

describe('every anonymous write but the public intake (login, refresh, accept-invite, the password routes…)', () => {
  // From tests/support/routes.ts; the public intake takes forms from the sites in formOrigins (above).
  const ROUTES_REFUSING = ROUTES.filter((r) => r.access === 'anyone' && r.method === 'POST' && r.path !== '/api/needs/public')
  const cases = ROUTES_REFUSING.flatMap(({ path }) => FROM_ANOTHER_SITE.map(([name, headers]) => [path, name, headers] as const))

  test.each(cases)('%s: %s is 403 with a clear detail, before the body is looked at', async (path, _name, headers) => {
    const body = {}
    const refused = await api.call('POST', path, { body, headers })
    expect(expectProblem(refused, 403, 'Forbidden').detail).toContain('another site')
    expect(refused.headers.get('ratelimit')).toBeString()
    expectProblem(await api.call('POST', path, { body: { not: 'a field' }, headers }), 403, 'Forbidden')
    // The same body from no browser is judged on its merits (a bad token, an unknown email…), not refused as foreign.
    expect((await api.call('POST', path, { body })).status).not.toBe(403)
  })

  test('a partner site in formOrigins is still another site here: no password reset email goes out for its pages', async () => {
    await deliverUntil(api, () => true)
    const before = fallbackEmailsTo(api, staffEmail).length
    expectProblem(
      await api.call('POST', '/api/auth/password-reset', {
        body: { email: staffEmail },
        headers: { 'sec-fetch-site': 'cross-site', origin: PARTNER },
      }),
      403,
      'Forbidden',
    )
    await deliverUntil(api, () => true)
    expect(fallbackEmailsTo(api, staffEmail)).toHaveLength(before)
  })

  test.each(FROM_OWN_SITE)('%s logs in', async (_name, headers) => {
    const token = await api.tokenFor(api.world, 'staff')
    const email = (await api.call('GET', '/api/profile', { token })).body.email
    expect((await api.call('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD }, headers })).status).toBe(200)
  })
})
