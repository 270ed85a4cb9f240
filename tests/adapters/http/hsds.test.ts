import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hsdsValidator, type HsdsSchemaName, type HsdsValidator } from '../../support/hsds-schemas'
import { startTestServer, TEST_DATABASE, type TestServer } from '../../support/http'
import { recordSqliteStatements } from '../../support/sqlite-statements'
import type { World } from '../../support/world'
import { expectProblem } from './helpers'

// docs/directory.md, over real HTTP: an organization's directory published as HSDS 3.0, each answer checked against HSDS's
// own compiled schemas, as published and closed to fields HSDS does not name.
type Json = Record<string, any>

const during = recordSqliteStatements()
let api: TestServer
let world: World
let validate: HsdsValidator
let slug: string
let admin: string
const services: Json[] = []
let archived: Json
let foodTermId: string

beforeAll(async () => {
  ;[api, validate] = await Promise.all([startTestServer(), hsdsValidator()])
  world = api.world
  admin = await api.tokenFor(world, 'org_admin')
  const put = (body: Json) => api.call('PUT', '/api/organizations/settings', { token: admin, body })
  slug = (await put({ publishDirectory: true, description: 'Food and shelter for the county' })).body.slug
  const terms = await fetch(`${api.url}/api/taxonomy-terms/import?vocabulary=open-eligibility`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
    body: 'code,name,description\n1102,Food,Meals and groceries\n1103,Housing,\n',
  })
  expect(terms.status).toBe(200)
  const pantry = await world.partner({ name: 'Pantry' })
  const shelter = await world.partner({ name: 'Shelter' })
  // A minute between services: each has its own last_modified, for modified_after.
  const create = async (body: Json) => {
    world.clock.advance(60_000)
    return (await api.call('POST', '/api/services', { token: admin, body })).body as Json
  }
  services.push(
    await create({
      partnerId: pantry.id,
      name: 'Food pantry',
      description: 'Groceries once a week',
      eligibility: 'County residents',
      languages: ['en', 'es-MX'],
      schedule: [{ byDay: ['TU', 'TH'], opensAt: '09:00', closesAt: '17:00', description: 'Walk in' }],
      fees: 'None',
      applicationProcess: 'Bring an ID',
      url: 'https://pantry.example.org',
      email: 'pantry@example.org',
      phone: '503 555 0142',
      address: { address1: '1 Main St', city: 'Portland', stateProvince: 'OR', postalCode: '97201', country: 'US' },
      acceptingReferrals: false,
      taxonomyTerms: [{ vocabulary: 'open-eligibility', code: '1102' }],
    }),
  )
  services.push(
    await create({
      partnerId: shelter.id,
      name: 'Night shelter',
      status: 'inactive',
      taxonomyTerms: [{ vocabulary: 'open-eligibility', code: '1103' }],
    }),
  )
  services.push(await create({ partnerId: pantry.id, name: 'Hot meals', status: 'defunct' }))
  archived = await create({ partnerId: shelter.id, name: 'Winter coats' })
  await api.call('PUT', `/api/services/${archived.id}`, { token: admin, body: { isArchived: true } })
  foodTermId = services[0]!.taxonomyTerms[0].id
})
afterAll(() => api.stop())

const hsds = (path: string, headers: Record<string, string> = {}) => api.call<Json>('GET', `/hsds/${slug}${path}`, { headers })

/** The answer is valid against `schema`, as published and closed: the service adds no field of its own. */
function expectValid(schema: HsdsSchemaName, record: unknown) {
  expect(validate(schema, record)).toEqual([])
  expect(validate(schema, record, 'strict')).toEqual([])
}
function expectValidPage(schema: HsdsSchemaName, page: Json) {
  for (const item of page.contents) expectValid(schema, item)
}

describe('a published directory', () => {
  test('/ names HSDS 3.0, its profile and its API reference', async () => {
    const about = await hsds('')
    expect(about.status).toBe(200)
    expect(about.body).toEqual({
      version: '3.0',
      profile: expect.stringMatching(/^https:/),
      openapi_url: expect.stringMatching(/^https:.*openapi\.json$/),
    })
  })

  test('/services pages the published services, newest first, archived ones left out, inactive and defunct ones with their status, each item valid', async () => {
    const page = await hsds('/services')
    expect(page.status).toBe(200)
    expect(page.body).toMatchObject({
      total_items: 3,
      total_pages: 1,
      page_number: 1,
      size: 3,
      first_page: true,
      last_page: true,
      empty: false,
    })
    expect(page.body.contents.map((s: Json) => [s.name, s.status])).toEqual([
      ['Hot meals', 'defunct'],
      ['Night shelter', 'inactive'],
      ['Food pantry', 'active'],
    ])
    expectValidPage('service_list', page.body)
  })

  test('a page past the first, and a search that finds nothing', async () => {
    const second = await hsds('/services?per_page=2&page=2')
    expect(second.body).toMatchObject({
      total_items: 3,
      total_pages: 2,
      page_number: 2,
      size: 1,
      first_page: false,
      last_page: true,
      empty: false,
    })
    const first = await hsds('/services?per_page=2')
    expect(first.body).toMatchObject({ total_pages: 2, page_number: 1, size: 2, first_page: true, last_page: false })
    expect([...first.body.contents, ...second.body.contents].map((s: Json) => s.name)).toEqual([
      'Hot meals',
      'Night shelter',
      'Food pantry',
    ])
    const none = await hsds('/services?search=zebra')
    expect(none.body).toEqual({
      total_items: 0,
      total_pages: 0,
      page_number: 1,
      size: 0,
      first_page: true,
      last_page: true,
      empty: true,
      contents: [],
    })
  })

  test('search, taxonomy_term_id and modified_after narrow each other', async () => {
    const names = async (query: string) => (await hsds(`/services?${query}`)).body.contents.map((s: Json) => s.name)
    expect(await names('search=GROCER')).toEqual(['Food pantry'])
    expect(await names('search=food')).toEqual(['Food pantry'])
    expect(await names(`taxonomy_term_id=${foodTermId}`)).toEqual(['Food pantry'])
    expect(await names(`taxonomy_term_id=${foodTermId}&search=shelter`)).toEqual([])
    expect(await names(`modified_after=${encodeURIComponent(services[0]!.updatedAt)}`)).toEqual(['Hot meals', 'Night shelter'])
    expect((await hsds('/services?per_page=101')).status).toBe(400)
  })

  test('/services/{id} answers the service whole, each nested record with a stable id', async () => {
    const [pantry] = services
    const one = await hsds(`/services/${pantry!.id}`)
    expect(one.status).toBe(200)
    expectValid('service', one.body)
    // The strict pass refuses what HSDS does not name.
    expect(validate('service', { ...one.body, acceptingReferrals: false }, 'strict')).not.toEqual([])
    expect(one.body).toMatchObject({
      id: pantry!.id,
      status: 'active',
      fees_description: 'None',
      eligibility_description: 'County residents',
      phones: [{ number: '+15035550142' }],
      schedules: [{ freq: 'WEEKLY', byday: 'TU,TH', opens_at: '09:00', closes_at: '17:00' }],
      languages: [{ code: 'en' }, { code: 'es', note: 'es-MX' }],
      organization: { id: world.organizationId, description: 'Food and shelter for the county' },
    })
    expect(one.body.attributes.map((a: Json) => [a.taxonomy_term.code, a.value])).toEqual([
      ['1102', undefined],
      ['accepting-referrals', 'false'],
    ])
    expect(one.body.service_at_locations[0].location.addresses[0]).toMatchObject({ address_1: '1 Main St', country: 'US' })
    expect((await hsds(`/services/${pantry!.id}`)).body).toEqual(one.body)
    expectProblem(await hsds(`/services/${archived.id}`), 404, 'Not found')
  })

  test('/organizations and /organizations/{id}: the one organization, with its partners as locations', async () => {
    const page = await hsds('/organizations')
    expect(page.body).toMatchObject({ total_items: 1, size: 1, empty: false })
    expectValidPage('organization_list', page.body)
    const one = await hsds(`/organizations/${world.organizationId}`)
    expectValid('organization', one.body)
    expect(one.body.locations.map((l: Json) => l.name).sort()).toEqual(['Pantry', 'Shelter'])
    expect(one.body.services).toHaveLength(3)
    expectProblem(await hsds(`/organizations/${services[0]!.id}`), 404, 'Not found')
  })

  test('/service_at_locations and /service_at_locations/{id}: each service at its partner', async () => {
    const page = await hsds('/service_at_locations?per_page=2')
    expect(page.body).toMatchObject({ total_items: 3, total_pages: 2, size: 2 })
    expectValidPage('service_at_location_list', page.body)
    const id = (await hsds(`/services/${services[0]!.id}`)).body.service_at_locations[0].id
    const one = await hsds(`/service_at_locations/${id}`)
    expectValid('service_at_location', one.body)
    expect(one.body).toMatchObject({ id, service_id: services[0]!.id, location: { name: 'Pantry' }, service: { name: 'Food pantry' } })
    expectProblem(await hsds(`/service_at_locations/${services[0]!.id}`), 404, 'Not found')
  })

  test('answers are cached by ETag and limited per client address', async () => {
    const first = await hsds('/services')
    expect(first.headers.get('cache-control')).toBe('public, max-age=300')
    expect(first.headers.get('ratelimit-policy')).toBe('"public-directory";q=600;w=60')
    const etag = first.headers.get('etag')!
    const again = await fetch(`${api.url}/hsds/${slug}/services`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })

  test.skipIf(TEST_DATABASE !== 'sqlite')('the recorder sees a member route read the members table', async () => {
    const statements = await during(() => api.call('GET', '/api/members', { token: admin }))
    expect(statements.some((sql) => /from\s+"members"/i.test(sql))).toBe(true)
  })

  test.skipIf(TEST_DATABASE !== 'sqlite')('no request reads a table of members, needs or people', async () => {
    const atLocation = (await hsds(`/services/${services[0]!.id}`)).body.service_at_locations[0].id
    const statements = await during(async () => {
      for (const path of [
        '',
        '/services',
        `/services/${services[0]!.id}`,
        '/organizations',
        `/organizations/${world.organizationId}`,
        '/service_at_locations',
        `/service_at_locations/${atLocation}`,
      ])
        expect((await hsds(path)).status).toBe(200)
    })
    expect(statements.length).toBeGreaterThan(0)
    const tables = new Set(statements.flatMap((sql) => [...sql.matchAll(/(?:from|join|into|update)\s+["`]?(\w+)/gi)].map((m) => m[1]!)))
    expect(tables).toContain('services')
    // The organization by any slug (organization_slugs), its partners, services and terms: nothing else.
    for (const table of tables) expect(['organizations', 'organization_slugs', 'partners', 'services', 'taxonomy_terms']).toContain(table)
  })
})

describe('a directory not published', () => {
  test('is 404 on each of the seven routes; a former slug is 308 to the one now', async () => {
    const other = await world.otherOrganization()
    const otherSlug = (await api.call('GET', '/api/organizations/settings', { token: await api.tokenFor(other, 'org_admin') })).body.slug
    for (const path of [
      '',
      '/services',
      `/services/${services[0]!.id}`,
      '/organizations',
      `/organizations/${other.organizationId}`,
      '/service_at_locations',
      `/service_at_locations/${services[0]!.id}`,
    ])
      expectProblem(await api.call('GET', `/hsds/${otherSlug}${path}`), 404, 'Not found')
    expect((await api.call('PUT', '/api/organizations/settings', { token: admin, body: { slug: `${slug}-new` } })).status).toBe(200)
    const moved = await fetch(`${api.url}/hsds/${slug}/services?page=2`, { redirect: 'manual' })
    expect(moved.status).toBe(308)
    expect(moved.headers.get('location')).toBe(`/hsds/${slug}-new/services?page=2`)
    slug = `${slug}-new`
  })
})
