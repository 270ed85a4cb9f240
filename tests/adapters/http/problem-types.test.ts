import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { UNKNOWN_ID } from './helpers'

// docs/api/conventions.md "Errors": every problem names its kind in `type`, a URI that is the same on every deployment.
let api: TestServer
let admin: string
let volunteer: string
beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
  volunteer = await api.tokenFor(api.world, 'volunteer', { partnerId: api.world.defaultPartner.id })
})
afterAll(() => api.stop())

const typeOf = (kind: string) => `tag:intake.example,2026:problems/${kind}`

describe('problem types', () => {
  test.each([
    [
      'a body the schema refuses',
      'invalid',
      400,
      () => api.call('POST', '/api/partners', { token: admin, body: { name: '', slaHours: -5 } }),
    ],
    [
      'a rule the use case refuses',
      'invalid',
      400,
      () => api.call('PUT', '/api/organizations/settings', { token: admin, body: { name: '  ', slug: 'food' } }),
    ],
    ['no token', 'unauthorized', 401, () => api.call('GET', '/api/needs')],
    [
      'a permission the role lacks',
      'forbidden',
      403,
      () => api.call('POST', '/api/partners', { token: volunteer, body: { name: 'A', slaHours: 1 } }),
    ],
    ['an unknown need', 'not-found', 404, () => api.call('GET', `/api/needs/${UNKNOWN_ID}`, { token: admin })],
    ['an unknown route', 'not-found', 404, () => api.call('GET', '/api/nowhere', { token: admin })],
    [
      'a body over 256 KiB',
      'payload-too-large',
      413,
      () => api.call('POST', '/api/partners', { token: admin, raw: 'x'.repeat(257 * 1024) }),
    ],
  ] as const)('%s is %s', async (_name, kind, status, call) => {
    const response = await call()
    expect({ status: response.status, type: (response.body as { type?: string }).type }).toEqual({ status, type: typeOf(kind) })
  })

  test('a conflict is conflict', async () => {
    const other = await api.world.otherOrganization()
    const settings = (await api.call('GET', '/api/organizations/settings', { token: admin })).body as { name: string }
    const taken = (await other.repositories.organizations.findById(other.organizationId))!.slug
    const response = await api.call('PUT', '/api/organizations/settings', { token: admin, body: { name: settings.name, slug: taken } })
    expect({ status: response.status, type: (response.body as { type?: string }).type }).toEqual({ status: 409, type: typeOf('conflict') })
  })

  test('an Idempotency-Key sent again with another request is idempotency-key-reused', async () => {
    const create = (customFields: object) =>
      api.call('POST', '/api/needs', {
        token: admin,
        body: { partnerId: api.world.defaultPartner.id, customFields },
        headers: { 'Idempotency-Key': 'problem-types-key' },
      })
    await create({ bags: 1 })
    const response = await create({ bags: 2 })
    expect({ status: response.status, type: (response.body as { type?: string }).type }).toEqual({
      status: 422,
      type: typeOf('idempotency-key-reused'),
    })
  })
})
