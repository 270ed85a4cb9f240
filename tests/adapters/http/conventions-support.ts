import { afterAll, beforeAll } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
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
/** A constituent kept whole by every test, a pair merged once, and an open household match. */
export let constituentId: string
export let mergeSource: string
export let mergeTarget: string
export let erased: string
export let matchId: string
/** A staff member to change, the organization's own name and slug, and a local port nothing listens on. */
export let memberId: string
export let organization: { name: string; slug: string }
export let closedPort: number

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
    mergeSource = await register({ firstName: 'Merge', lastName: 'Source' })
    mergeTarget = await register({ firstName: 'Merge', lastName: 'Target' })
    erased = await register({ firstName: 'Erase', lastName: 'Me' })
    const matches = (await api.call('GET', '/api/household-matches?status=OPEN', { token: admin })).body as Array<{
      id: string
      constituentId: string
    }>
    matchId = matches.find((m) => m.constituentId === duplicate)!.id
    memberId = (await api.world.member('staff')).memberId
    organization = (await api.call('GET', '/api/organizations/settings', { token: admin })).body
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    closedPort = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  })
  afterAll(() => api.stop())
}
