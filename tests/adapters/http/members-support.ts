import { afterAll, beforeAll, expect } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { claimsOf, invitationIn, fallbackInvitationTo } from './helpers'

// What the members-*.test.ts files share: one server a file, with two organizations, two partners and a
// member of each role, and the calls that invite, update and list members. Invitations of an organization
// without email settings go to the fallback, which the tests read (the log keeps none of them).
// Each file calls `openMembersServer()` at its top; its tests reach the rest through these exports.
export type MemberJson = {
  id: string
  email: string
  fullName?: string
  role: string
  partnerId?: string
  partnerName?: string
  profiles?: string[]
  isConfirmed: boolean
  phone?: string
  lastLoginAt?: string
}
export type TokenPair = { accessToken: string; refreshToken: string; tokenType: string; expiresIn: number }

export const BASE_URL = 'https://app.example.test'
export const NEW_PASSWORD = 'a brand new long password'

export let api: TestServer
export let world: World
export let other: World
export let partnerA: Partner
export let partnerB: Partner
export const tokens: Record<string, string> = {}
/** Member ids behind some of the tokens. */
export const ids: Record<string, string> = {}

/** Before the tests of the file that calls it: the server and its members; after them, the server stopped. */
export function openMembersServer(): void {
  beforeAll(async () => {
    api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL })
    world = api.world
    other = await world.otherOrganization()
    partnerA = await world.partner({ name: 'Pantry A' })
    partnerB = await world.partner({ name: 'Pantry B' })
    const [admin, staff, partnerAdminA, agentA, volunteerA, agentB, otherAdmin] = await Promise.all([
      api.tokenFor(world, 'org_admin'),
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'partner_admin', { partnerId: partnerA.id }),
      api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id }),
      api.tokenFor(world, 'volunteer', { partnerId: partnerA.id }),
      api.tokenFor(world, 'partner_agent', { partnerId: partnerB.id }),
      api.tokenFor(other, 'org_admin'),
    ])
    Object.assign(tokens, { admin, staff, partnerAdminA, agentA, volunteerA, agentB, otherAdmin })
    for (const [name, token] of Object.entries(tokens)) ids[name] = claimsOf(token).sub
  })
  afterAll(() => api.stop())
}

export const uniqueEmail = (label = 'member') => `${label}-${crypto.randomUUID().slice(0, 8)}@example.org`
export const invite = (body: unknown, token = tokens.admin) => api.call<MemberJson>('POST', '/api/members', { token, body })
export const update = (id: string, body: unknown, token = tokens.admin) =>
  api.call<MemberJson>('PUT', `/api/members/${id}`, { token, body })
export const acceptInvite = (body: unknown) => api.call<TokenPair>('POST', '/api/auth/accept-invite', { body })

export async function members(token = tokens.admin): Promise<MemberJson[]> {
  const response = await api.call<MemberJson[]>('GET', '/api/members?limit=100', { token })
  expect(response.status).toBe(200)
  expect(Number(response.headers.get('x-total-count'))).toBeLessThanOrEqual(100)
  return response.body
}

export async function memberById(id: string, token = tokens.admin): Promise<MemberJson | undefined> {
  return (await members(token)).find((m) => m.id === id)
}

/** Invites a member (201 expected) and answers it. */
export async function invited(body: Record<string, unknown> = {}, token = tokens.admin): Promise<MemberJson> {
  const response = await invite({ email: uniqueEmail(), role: 'staff', ...body }, token)
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

/** The invitation token emailed (through the fallback) to `email`. */
export async function invitationTokenFor(email: string): Promise<string> {
  return invitationIn((await fallbackInvitationTo(api, email)).text).token
}
