import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { problemResponse, PROBLEM_LIMITS } from '../../../src/adapters/http/problem'
import { startTestServer, type TestServer } from '../../support/http'

// docs/api/openapi.md "OpenAPI lint": answers are checked against schemas bounded by the rules of the inputs, so a value
// stored at the longest an input allows must come back whole; a problem says no more than its schema allows.
let api: TestServer
let admin: string
beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

const longest = (prefix: string, length: number) => prefix.padEnd(length, 'x')

describe('answers carry values at the longest each input allows', () => {
  test('a partner, as created and as listed', async () => {
    const partner = {
      name: longest('Pantry ', 200),
      slaHours: 8760,
      description: longest('Food ', 5000),
      keywords: Array.from({ length: 50 }, (_, i) => longest(`k${i}-`, 100)),
      website: longest('https://example.org/', 2000),
      publicCategoryName: longest('Food ', 200),
    }
    const created = await api.call('POST', '/api/partners', { token: admin, body: partner })
    expect({ status: created.status, body: created.body }).toMatchObject({ status: 201, body: partner })
    const listed = await api.call<Array<{ id: string }>>('GET', '/api/partners?limit=100', { token: admin })
    expect(listed.status).toBe(200)
    expect(listed.body.find((p) => p.id === created.body.id)).toMatchObject(partner)
  })

  test('a member, as invited and as listed; a note on a need, as added and as listed', async () => {
    const member = { email: `${longest('a', 242)}@example.org`, role: 'staff', fullName: longest('Ada ', 200), phone: '+491511234567890' }
    const invited = await api.call('POST', '/api/members', { token: admin, body: member })
    expect({ status: invited.status, body: invited.body }).toMatchObject({ status: 201, body: member })
    expect((await api.call('GET', '/api/members?limit=100', { token: admin })).status).toBe(200)

    const need = await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })
    const content = longest('Called ', 5000)
    const note = await api.call('POST', `/api/needs/${need.body.id}/notes`, { token: admin, body: { content } })
    expect({ status: note.status, content: note.body.content }).toEqual({ status: 201, content })
    expect((await api.call('GET', `/api/needs/${need.body.referenceNumber}/interactions`, { token: admin })).status).toBe(200)
  })

  test('the organization settings', async () => {
    const settings = {
      name: longest('Food bank ', 200),
      slug: longest('food-bank-', 63),
      shortCode: 'ABCDEF',
      maxConcurrency: 1000,
      tcrStatus: longest('approved ', 64),
    }
    const updated = await api.call('PUT', '/api/organizations/settings', { token: admin, body: settings })
    expect({ status: updated.status, body: updated.body }).toMatchObject({ status: 200, body: settings })
  })
})

describe('a problem stays within the bounds its schema gives', () => {
  test('the detail of an unknown route as long as the URL allows', async () => {
    const response = await api.call('GET', `/api/${'x'.repeat(6000)}`, { token: admin })
    expect(response.status).toBe(404)
    expect(response.body.detail.length).toBe(PROBLEM_LIMITS.detail)
  })

  test('the fields of an invalid request: at most so many, each path and message cut to its bound', async () => {
    const errors = Array.from({ length: 150 }, (_, i) => ({ path: `/${i}${'k'.repeat(5000)}`, message: 'm'.repeat(5000) }))
    const body = (await problemResponse('invalid', 'The request is not valid', { errors }).json()) as { errors: typeof errors }
    expect(body.errors).toHaveLength(PROBLEM_LIMITS.errors)
    expect(body.errors[0]).toEqual({ path: errors[0]!.path.slice(0, PROBLEM_LIMITS.path), message: 'm'.repeat(PROBLEM_LIMITS.message) })
  })
})
