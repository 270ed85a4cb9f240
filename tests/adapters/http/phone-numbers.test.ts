import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, postForm } from './helpers'

// docs/api/needs.md "Phone numbers": a national number of the organization's defaultCountry, as people type it, is
// taken everywhere a phone is (a need's customFields, a constituent, an import, the intake page) and kept in E.164.
// Over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
let api: TestServer

beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

const PLAIN_WORDS = 'must be a phone number, e.g. +1 503 555 0142 or 503 555 0142'

async function organizationIn(country?: string): Promise<{ org: World; token: string }> {
  const org = await api.world.otherOrganization()
  const token = await api.tokenFor(org, 'org_admin')
  if (country) expect((await api.call('PUT', '/api/organizations/settings', { token, body: { defaultCountry: country } })).status).toBe(200)
  return { org, token }
}

const needWith = (org: World, token: string, phone: string) =>
  api.call<{ customFields: { phone?: string }; constituentId?: string }>('POST', '/api/needs', {
    token,
    body: { partnerId: org.defaultPartner.id, customFields: { firstName: 'Ana', phone } },
  })

describe('a phone as people type it', () => {
  test('a need with customFields phone "503 555 0142" answers and keeps +15035550142, its new constituent too', async () => {
    const { org, token } = await organizationIn()
    const created = await needWith(org, token, '503 555 0142')
    expect(created.status).toBe(201)
    expect(created.body.customFields.phone).toBe('+15035550142')
    const read = await api.call<{ customFields: { phone: string } }>('GET', `/api/needs/${(created.body as { id?: string }).id}`, { token })
    expect(read.body.customFields.phone).toBe('+15035550142')
    const person = await api.call<{ phone: string }>('GET', `/api/constituents/${created.body.constituentId}`, { token })
    expect(person.body.phone).toBe('+15035550142')
  })

  test('an organization whose defaultCountry is GB takes "07700 900123" as +447700900123, and refuses what is no number there', async () => {
    const { org, token } = await organizationIn('GB')
    const created = await needWith(org, token, '07700 900123')
    expect(created.status).toBe(201)
    expect(created.body.customFields.phone).toBe('+447700900123')
    // International form is taken in any country.
    expect((await needWith(org, token, '+1 503 555 0142')).body.customFields.phone).toBe('+15035550142')
    expect(expectBadRequest(await needWith(org, token, '503 555')).errors).toEqual([{ path: '/customFields/phone', message: PLAIN_WORDS }])
  })

  test('a constituent created, or changed, with "(503) 555-1000" is kept as +15035551000', async () => {
    const { token } = await organizationIn()
    const created = await api.call<{ id: string; phone: string }>('POST', '/api/constituents', {
      token,
      body: { firstName: 'Ben', phone: '(503) 555-1000' },
    })
    expect(created.status).toBe(201)
    expect(created.body.phone).toBe('+15035551000')
    const changed = await api.call<{ phone: string }>('PUT', `/api/constituents/${created.body.id}`, {
      token,
      body: { phone: '503.555.1001' },
    })
    expect(changed.body.phone).toBe('+15035551001')
  })

  test('a refused phone is a 400 in plain words, naming the field', async () => {
    const { token } = await organizationIn()
    for (const phone of ['555 1000', '1-800-FLOWERS', '+1 503 555 01420']) {
      const response = await api.call('POST', '/api/constituents', { token, body: { firstName: 'Ben', phone } })
      expect(expectBadRequest(response).errors).toEqual([{ path: '/phone', message: PLAIN_WORDS }])
    }
  })

  test('a CSV import row with "(503) 555-1000" is created with +15035551000', async () => {
    const { token } = await organizationIn()
    const response = await fetch(`${api.url}/api/constituents/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv; charset=utf-8' },
      body: 'firstName,lastName,phone\r\nCleo,Park,(503) 555-1000\r\nDev,Rao,555-1000\r\n',
    })
    expect(await response.json()).toMatchObject({
      created: 1,
      errors: [{ row: 2, field: 'phone', message: PLAIN_WORDS }],
    })
    const found = await api.call<Array<{ phone: string }>>('GET', '/api/constituents?query=Park', { token })
    expect(found.body.map((person) => person.phone)).toEqual(['+15035551000'])
  })

  test('the public intake page reads the number in the organization’s country', async () => {
    const { token } = await organizationIn('GB')
    const { slug } = (await api.call<{ slug: string }>('GET', '/api/organizations/settings', { token })).body
    const page = await postForm(api, `/intake/${slug}`, { description: 'Food for two', firstName: 'Eve', phone: '020 7946 0018' })
    expect(page.status).toBe(200)
    const needs = await api.call<Array<{ customFields: { phone: string } }>>('GET', '/api/needs', { token })
    expect(needs.body.map((need) => need.customFields.phone)).toEqual(['+442079460018'])
  })
})

describe('defaultCountry in the organization settings', () => {
  test('US until set; PUT sets it, GET answers it', async () => {
    const { token } = await organizationIn()
    expect((await api.call('GET', '/api/organizations/settings', { token })).body).toMatchObject({ defaultCountry: 'US' })
    expect(await api.call('PUT', '/api/organizations/settings', { token, body: { defaultCountry: 'ES' } })).toMatchObject({
      status: 200,
      body: { defaultCountry: 'ES' },
    })
    expect((await api.call('GET', '/api/organizations/settings', { token })).body).toMatchObject({ defaultCountry: 'ES' })
  })

  test.each(['us', 'USA', 'XX', ''])('%p is refused, naming /defaultCountry', async (defaultCountry) => {
    const { token } = await organizationIn()
    expectBadRequest(await api.call('PUT', '/api/organizations/settings', { token, body: { defaultCountry } }), '/defaultCountry')
    expect((await api.call('GET', '/api/organizations/settings', { token })).body).toMatchObject({ defaultCountry: 'US' })
  })
})
