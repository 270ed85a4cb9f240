import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectBadRequest, expectProblem } from './helpers'

// docs/api/organization.md "Organization settings": appOrigins and formOrigins over real HTTP (SQLite, and PostgreSQL with
// TEST_DATABASE=postgres).

let api: TestServer
let admin: string
let staff: string

beforeAll(async () => {
  api = await startTestServer()
  ;[admin, staff] = await Promise.all([api.tokenFor(api.world, 'org_admin'), api.tokenFor(api.world, 'staff')])
})
afterAll(() => api.stop())

const put = (body: unknown, token = admin) => api.call('PUT', '/api/organizations/settings', { token, body })
const current = async () => (await api.call('GET', '/api/organizations/settings', { token: admin })).body

describe('appOrigins and formOrigins', () => {
  test('are stored, answered by GET, kept when left out and emptied by []', async () => {
    const set = await put({
      appOrigins: ['https://staff.example.org'],
      formOrigins: ['https://pantry.example.net', 'https://shelter.example.net:8443'],
    })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({
      appOrigins: ['https://staff.example.org'],
      formOrigins: ['https://pantry.example.net', 'https://shelter.example.net:8443'],
    })
    expect((await put({ name: 'Renamed' })).body).toMatchObject({
      appOrigins: ['https://staff.example.org'],
      formOrigins: ['https://pantry.example.net', 'https://shelter.example.net:8443'],
    })
    expect(await current()).toMatchObject({ appOrigins: ['https://staff.example.org'] })
    expect((await put({ appOrigins: [], formOrigins: [] })).body).toMatchObject({ appOrigins: [], formOrigins: [] })
    expect(await current()).toMatchObject({ appOrigins: [], formOrigins: [] })
  })

  test.each([
    ['a path', ['https://staff.example.org/app']],
    ['http', ['http://staff.example.org']],
    ['the default port', ['https://staff.example.org:443']],
    ['upper case', ['https://STAFF.example.org']],
    ['a repeat', ['https://staff.example.org', 'https://staff.example.org']],
    ['21 origins', Array.from({ length: 21 }, (_, i) => `https://site${i}.example.org`)],
    ['not a list', 'https://staff.example.org'],
  ])('%s is 400 naming the list, and nothing changes', async (_name, origins) => {
    const before = await current()
    expectBadRequest(await put({ appOrigins: origins }), '/appOrigins')
    expectBadRequest(await put({ formOrigins: origins }), '/formOrigins')
    expect(await current()).toEqual(before)
  })

  test('only an org_admin may set them', async () => {
    const before = await current()
    expectProblem(await put({ formOrigins: ['https://evil.example'] }, staff), 403, 'Forbidden')
    expect(await current()).toEqual(before)
  })
})
