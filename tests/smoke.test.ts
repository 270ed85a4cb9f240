import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from './support/http'

let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

describe('smoke', () => {
  test('admin creates and reads a need', async () => {
    const token = await api.tokenFor(api.world, 'org_admin')
    const created = await api.call('POST', '/api/needs', { token, body: { partnerId: api.world.defaultPartner.id } })
    expect(created.status).toBe(201)
    const read = await api.call('GET', `/api/needs/${created.body.referenceNumber.toLowerCase()}`, { token })
    expect(read.body.id).toBe(created.body.id)
  })
})
