import { afterAll, beforeAll } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'

// What the HTTP conventions tests share (conventions-health, conventions-routes, conventions-bodies and
// conventions-twilio.test.ts): a server of each file's own, an org_admin's token and a need.
// Each file calls `openConventionsServer()`; its tests reach them through the bindings below.

export let api: TestServer
export let admin: string
export let needId: string

/** Before the tests of the file: the server, the token and the need; after them, stopped. */
export function openConventionsServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
    admin = await api.tokenFor(api.world, 'org_admin')
    needId = (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })).body.id
  })
  afterAll(() => api.stop())
}
