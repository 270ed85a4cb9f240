import { afterAll, beforeAll } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'

// What the HTTP conventions tests share (conventions-health, conventions-routes, conventions-bodies and
// conventions-twilio.test.ts): a server of each file's own holding a record of every kind a route names.
// Each file calls `openConventionsServer()`; its tests reach the server and the records through the bindings below.

export let api: TestServer
export let admin: string
export let needId: string
/** A need whose constituent has a phone number, so a text to it is accepted (the log provider sends it). */
export let smsNeedId: string
export let partnerId: string
/** A constituent kept whole by every test, and an open household match. */
export let constituentId: string
export let matchId: string
/** A staff member to change. */
export let memberId: string

/** Before the tests of the file: the server and its records; after them, stopped. */
export function openConventionsServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
    admin = await api.tokenFor(api.world, 'org_admin')
    needId = (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })).body.id
    partnerId = (await api.world.partner()).id
    const register = async (body: Record<string, string>) =>
      (await api.call('POST', '/api/constituents', { token: admin, body })).body.id as string
    constituentId = await register({ firstName: 'Kept', lastName: 'Whole', phone: '+15550100001' })
    smsNeedId = (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id, constituentId } }))
      .body.id
    const duplicate = await register({ firstName: 'Kept', lastName: 'Again', phone: '+15550100001' })
    const matches = (await api.call('GET', '/api/household-matches?status=OPEN', { token: admin })).body as Array<{
      id: string
      constituentId: string
    }>
    matchId = matches.find((m) => m.constituentId === duplicate)!.id
    memberId = (await api.world.member('staff')).memberId
  })
  afterAll(() => api.stop())
}
