import { afterAll, beforeAll, expect } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'

// What the needs-*.test.ts files share: one server a file, with two organizations, two partners and an
// archived one, a member of each role the needs routes tell apart, and a way to create needs.
// Each file calls `openNeedsServer()` at its top; its tests reach the rest through these exports.
export type Need = Record<string, any> & { id: string; referenceNumber: string; partnerId: string; createdAt: string; updatedAt: string }

export let api: TestServer
export let world: World
export let other: World
export let partnerA: Partner
export let partnerB: Partner
export let archived: Partner
export const tokens: Record<string, string> = {}
export const ids: Record<string, string> = {}

/** Before the tests of the file that calls it: the server and its members; after them, the server stopped. */
export function openNeedsServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
    world = api.world
    other = await world.otherOrganization()
    partnerA = await world.partner({ name: 'Pantry A', slaHours: 24 })
    partnerB = await world.partner({ name: 'Pantry B', slaHours: 72 })
    archived = await world.partner({ name: 'Closed', isArchived: true })
    const [admin, staff, agentA, partnerAdminA, volunteerA, intakeVolunteerA, processorVolunteerA, piiStaff, otherAdmin] =
      await Promise.all([
        api.tokenFor(world, 'org_admin'),
        api.tokenFor(world, 'staff'),
        api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id }),
        api.tokenFor(world, 'partner_admin', { partnerId: partnerA.id }),
        api.tokenFor(world, 'volunteer', { partnerId: partnerA.id }),
        api.tokenFor(world, 'volunteer', { partnerId: partnerA.id, profiles: ['intake_staff'] }),
        api.tokenFor(world, 'volunteer', { partnerId: partnerA.id, profiles: ['needs_processor'] }),
        api.tokenFor(world, 'staff', { profiles: ['pii_reader'] }),
        api.tokenFor(other, 'org_admin'),
      ])
    Object.assign(tokens, { admin, staff, agentA, partnerAdminA, volunteerA, intakeVolunteerA, processorVolunteerA, piiStaff, otherAdmin })
    const member = await world.member('staff')
    ids.assignee = member.memberId
    ids.otherMember = (await other.member('staff')).memberId
  })
  afterAll(() => api.stop())
}

export async function createNeed(body: Record<string, unknown> = {}, token = tokens.admin!): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect(response.status).toBe(201)
  return response.body
}

/** A need of the other organization, made by its admin. */
export const createOtherNeed = () => createNeed({ partnerId: other.defaultPartner.id }, tokens.otherAdmin)

export function hasNoNulls(value: unknown): boolean {
  if (value === null) return false
  if (Array.isArray(value)) return value.every(hasNoNulls)
  if (typeof value === 'object') return Object.values(value as object).every(hasNoNulls)
  return true
}
