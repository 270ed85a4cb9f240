import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, ISO_MS, UNKNOWN_ID } from './helpers'

// docs/api/services.md, over real HTTP: the directory of services, its taxonomy import, and the organization's description.
type ServiceJson = Record<string, any> & { id: string; name: string; isArchived: boolean; updatedAt: string }

let api: TestServer
let world: World
let pantry: Partner
let shelter: Partner
const tokens: Record<string, string> = {}

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  const other = await world.otherOrganization()
  pantry = await world.partner({ name: 'Pantry' })
  shelter = await world.partner({ name: 'Shelter' })
  const [admin, pantryAdmin, volunteer, otherAdmin] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'partner_admin', { partnerId: pantry.id }),
    api.tokenFor(world, 'volunteer', { partnerId: pantry.id }),
    api.tokenFor(other, 'org_admin'),
  ])
  Object.assign(tokens, { admin, pantryAdmin, volunteer, otherAdmin })
  const imported = await importTerms('open-eligibility', 'code,name,description\n1102,Food,Meals and groceries\n1103,Housing,\n')
  expect(imported.status).toBe(200)
})
afterAll(() => api.stop())

const create = (body: unknown, token = tokens.admin) => api.call<ServiceJson>('POST', '/api/services', { token, body })
const update = (id: string, body: unknown, token = tokens.admin) => api.call<ServiceJson>('PUT', `/api/services/${id}`, { token, body })
const list = (query = '', token = tokens.admin) => api.call<ServiceJson[]>('GET', `/api/services${query}`, { token })
const importTerms = (vocabulary: string, csv: string, token = tokens.admin) =>
  fetch(`${api.url}/api/taxonomy-terms/import?vocabulary=${vocabulary}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: csv,
  })

describe('/api/services', () => {
  test('creates a service with every field, answers it as kept, and reads it back for any member', async () => {
    const created = await create({
      partnerId: pantry.id,
      name: 'Food pantry',
      description: 'Groceries once a week',
      status: 'active',
      eligibility: 'County residents',
      languages: ['en', 'es-mx'],
      schedule: [{ byDay: ['TH', 'TU'], opensAt: '09:00', closesAt: '17:00', description: 'Walk in' }],
      fees: 'None',
      applicationProcess: 'Bring an ID',
      url: 'https://pantry.example.org',
      email: 'pantry@example.org',
      phone: '503 555 0142',
      address: { address1: '1 Main St', city: 'Portland', stateProvince: 'OR', postalCode: '97201', country: 'US' },
      acceptingReferrals: false,
      taxonomyTerms: [{ vocabulary: 'open-eligibility', code: '1102' }],
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      languages: ['en', 'es-MX'],
      schedule: [{ byDay: ['TU', 'TH'], opensAt: '09:00', closesAt: '17:00', description: 'Walk in' }],
      phone: '+15035550142',
      acceptingReferrals: false,
      isArchived: false,
      taxonomyTerms: [{ vocabulary: 'open-eligibility', code: '1102', name: 'Food', description: 'Meals and groceries' }],
    })
    expect(created.body.taxonomyTerms[0].id).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.body.updatedAt).toMatch(ISO_MS)
    expect(created.body).not.toHaveProperty('organizationId')
    const read = await api.call<ServiceJson>('GET', `/api/services/${created.body.id}`, { token: tokens.volunteer })
    expect(read.body).toEqual(created.body)
  })

  test('refuses an unknown term, a partner of no one, and fields against their rules, naming each', async () => {
    const base = { partnerId: pantry.id, name: 'Shelter beds' }
    expectBadRequest(await create({ ...base, taxonomyTerms: [{ vocabulary: 'open-eligibility', code: '9999' }] }), '/taxonomyTerms/0')
    expectBadRequest(await create({ ...base, partnerId: UNKNOWN_ID }), '/partnerId')
    expectBadRequest(await create({ ...base, status: 'open' }), '/status')
    expectBadRequest(await create({ ...base, schedule: [{ byDay: ['MO'], opensAt: '9am', closesAt: '17:00' }] }), '/schedule/0/opensAt')
    expectBadRequest(await create({ ...base, schedule: [{ byDay: ['MO'], opensAt: '17:00', closesAt: '09:00' }] }), '/schedule')
    expectBadRequest(await create({ ...base, languages: ['not a language'] }), '/languages')
    expectBadRequest(await create({ ...base, phone: 'call us' }), '/phone')
  })

  test('updates, clears with null, archives (never deletes); lists by partner, status and archived, paged', async () => {
    // A partner of its own: the other tests' services would be listed too, in whichever order they run.
    const shelter = await world.partner({ name: 'Night shelter' })
    const first = (await create({ partnerId: shelter.id, name: 'Beds', fees: 'Free' })).body
    const second = (await create({ partnerId: shelter.id, name: 'Meals', status: 'inactive' })).body
    const updated = await update(first.id, { fees: null, acceptingReferrals: false })
    expect(updated.status).toBe(200)
    expect(updated.body).not.toHaveProperty('fees')
    expect((await update(first.id, { isArchived: true })).body.isArchived).toBe(true)
    expect((await list(`?partnerId=${shelter.id}`)).body.map((s) => s.id)).toEqual([second.id])
    const all = await list(`?partnerId=${shelter.id}&includeArchived=true&limit=1`)
    expect(all.body).toHaveLength(1)
    expect(all.headers.get('x-total-count')).toBe('2')
    expect((await list(`?partnerId=${shelter.id}&status=inactive`)).body.map((s) => s.id)).toEqual([second.id])
    expectBadRequest(await list('?status=closed'), 'status')
  })

  test("a partner_admin manages its own partner's services only: 403 for another's; another organization's is 404", async () => {
    const own = await create({ partnerId: pantry.id, name: 'Pantry hours' }, tokens.pantryAdmin)
    expect(own.status).toBe(201)
    expectProblem(await create({ partnerId: shelter.id, name: 'Not mine' }, tokens.pantryAdmin), 403, 'Forbidden')
    const theirs = (await create({ partnerId: shelter.id, name: 'Theirs' })).body
    expectProblem(await update(theirs.id, { name: 'Mine' }, tokens.pantryAdmin), 403, 'Forbidden')
    expectProblem(await update(own.body.id, { partnerId: shelter.id }, tokens.pantryAdmin), 403, 'Forbidden')
    expectProblem(await create({ partnerId: pantry.id, name: 'X' }, tokens.volunteer), 403, 'Forbidden')
    expectProblem(await api.call('GET', `/api/services/${own.body.id}`, { token: tokens.otherAdmin }), 404, 'Not found')
    expect((await list('?includeArchived=true', tokens.otherAdmin)).body).toEqual([])
  })
})

describe('/api/taxonomy-terms', () => {
  test('imports a vocabulary as CSV (org_admin only) and finds its terms by vocabulary and words', async () => {
    const response = await importTerms('211-la', 'code,name\nBD-1800,Food Pantries\nBD-1800,Again\n,No code\n')
    const report = await response.json()
    expect(report).toMatchObject({ dryRun: false, rows: 3, created: 1, skipped: 1, errors: [{ row: 3, field: 'code' }] })
    expect((await importTerms('211-la', 'code,name\nX,Y\n', tokens.pantryAdmin)).status).toBe(403)
    expect((await importTerms('not ok', 'code,name\nX,Y\n')).status).toBe(400)
    const found = await api.call<Array<Record<string, string>>>('GET', '/api/taxonomy-terms?vocabulary=211-la&q=pantr', {
      token: tokens.volunteer,
    })
    expect(found.body).toEqual([{ id: expect.any(String), vocabulary: '211-la', code: 'BD-1800', name: 'Food Pantries' }])
    const food = await api.call<Array<Record<string, string>>>('GET', '/api/taxonomy-terms?q=food', { token: tokens.admin })
    expect(food.body.map((t) => `${t.vocabulary}:${t.code}`)).toEqual(['211-la:BD-1800', 'open-eligibility:1102'])
  })
})

describe('the organization description', () => {
  test('is set, answered and cleared through the settings', async () => {
    const settings = (body: unknown) =>
      api.call<Record<string, unknown>>('PUT', '/api/organizations/settings', { token: tokens.admin, body })
    expect((await settings({ description: 'Feeds the county' })).body.description).toBe('Feeds the county')
    expect((await api.call<Record<string, unknown>>('GET', '/api/organizations/settings', { token: tokens.admin })).body.description).toBe(
      'Feeds the county',
    )
    expect((await settings({ description: null })).body).not.toHaveProperty('description')
    expectBadRequest(await settings({ description: 'x'.repeat(5001) }), '/description')
  })
})
