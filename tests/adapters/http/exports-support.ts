import { afterAll, beforeAll, expect } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { parseCsv } from '../../support/csv'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'

// What the export tests share (exports-needs, exports-constituents and exports-streaming.test.ts): a server
// of each file's own with a partner and members of every kind the exports tell apart, and another
// organization's admin. Each file calls `openExportsServer()`; its tests reach them through the bindings below.

export let api: TestServer
export let world: World
export let pantry: Partner
export const tokens: Record<string, string> = {}

/** Before the tests of the file: the server, its partner and the members' tokens; after them, stopped. */
export function openExportsServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
    world = api.world
    pantry = await world.partner({ name: 'Pantry' })
    const other = await world.otherOrganization()
    const [admin, piiStaff, piiAgent, staff, partnerAdmin, piiVolunteer, otherAdmin] = await Promise.all([
      api.tokenFor(world, 'org_admin'),
      api.tokenFor(world, 'staff', { profiles: ['pii_reader'] }),
      api.tokenFor(world, 'partner_agent', { partnerId: pantry.id, profiles: ['pii_reader'] }),
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'partner_admin', { partnerId: pantry.id }),
      api.tokenFor(world, 'volunteer', { partnerId: pantry.id, profiles: ['pii_reader'] }),
      api.tokenFor(other, 'org_admin'),
    ])
    Object.assign(tokens, { admin, piiStaff, piiAgent, staff, partnerAdmin, piiVolunteer, otherAdmin })
  })
  afterAll(() => api.stop())
}

/** The export as text with its answer, and its records read back by a strict RFC 4180 reader. */
export async function exported(path: string, token: string) {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`)
  const [header, ...rows] = parseCsv(text)
  return { response, text, header: header!, rows: rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!]))) }
}

export const createNeed = async (body: Record<string, unknown>, token = tokens.admin!) => {
  const response = await api.call<Record<string, any>>('POST', '/api/needs', { token, body })
  expect(response.status).toBe(201)
  world.clock.advance(1000)
  return response.body
}
