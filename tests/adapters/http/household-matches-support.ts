import { uniqueEmail, uniqueName, uniquePhone } from '../../support/builders'
import { afterAll, beforeAll, expect } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { type ConstituentFields, withoutTexting } from './helpers'

// What the household-matches-*.test.ts files share: one server a file, with two organizations, a partner and
// a member of each role that may or may not see matches, and the ways to register people and read matches.
// Each file calls `openMatchesServer()` at its top; its tests reach the rest through these exports.
export type Constituent = ConstituentFields & { id: string; householdId: string }
export type Need = Record<string, any> & { id: string; constituentId?: string; householdId?: string; duplicateWarning?: string }
export interface Match {
  id: string
  organizationId: string
  constituentId: string
  candidateConstituentId: string
  reason: string
  reasons: string[]
  constituent?: Constituent
  candidate?: Constituent
  status: 'OPEN' | 'RESOLVED' | 'DISMISSED'
  createdAt: string
  resolvedAt?: string
  resolvedBy?: string
  action?: string
}

export interface Tokens {
  admin: string
  resolver: string
  staff: string
  piiStaff: string
  partnerAdmin: string
  agent: string
  intakeVolunteer: string
  otherAdmin: string
}

export let api: TestServer
export let world: World
export let other: World
export let partner: Partner
export let tokens: Tokens

/** Before the tests of the file that calls it: the server and its members; after them, the server stopped. */
export function openMatchesServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
    world = api.world
    other = await world.otherOrganization()
    partner = await world.partner({ name: 'Pantry' })
    const [admin, resolver, staff, piiStaff, partnerAdmin, agent, intakeVolunteer, otherAdmin] = await Promise.all([
      api.tokenFor(world, 'org_admin'),
      api.tokenFor(world, 'staff', { profiles: ['duplicate_resolver'] }),
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'staff', { profiles: ['pii_reader'] }),
      api.tokenFor(world, 'partner_admin', { partnerId: partner.id }),
      api.tokenFor(world, 'partner_agent', { partnerId: partner.id }),
      api.tokenFor(world, 'volunteer', { partnerId: partner.id, profiles: ['intake_staff'] }),
      api.tokenFor(other, 'org_admin'),
    ])
    tokens = { admin, resolver, staff, piiStaff, partnerAdmin, agent, intakeVolunteer, otherAdmin }
  })
  afterAll(() => api.stop())
}

export type PossibleDuplicate = { constituentId: string; reasons: string[] }
export type Registered = Constituent & { possibleDuplicates?: PossibleDuplicate[]; duplicateWarning?: string }

/** The answer of POST /api/constituents: the constituent, and who it may be already. */
export async function registered(body: Record<string, unknown>, token = tokens.admin): Promise<Registered> {
  const response = await api.call<Registered>('POST', '/api/constituents', { token, body })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

/** A constituent registered through POST /api/constituents, as it reads back. */
export async function register(body: Record<string, unknown>, token = tokens.admin): Promise<Constituent> {
  const { possibleDuplicates: _p, duplicateWarning: _w, ...constituent } = await registered(body, token)
  return constituent
}

export async function createNeed(body: Record<string, unknown>, token = tokens.admin): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

export const readNeed = async (id: string, token = tokens.admin) =>
  withoutTexting((await api.call<Need>('GET', `/api/needs/${id}`, { token })).body)

/** Every match of the organization with `status` (all statuses when absent), through the pages. */
export async function allMatches(status?: string, token = tokens.admin): Promise<Match[]> {
  const found: Match[] = []
  for (let page = 1; ; page++) {
    const response = await api.call<Match[]>('GET', `/api/household-matches?limit=100&page=${page}${status ? `&status=${status}` : ''}`, {
      token,
    })
    expect(response.status).toBe(200)
    found.push(...response.body)
    if (found.length >= Number(response.headers.get('x-total-count'))) return found
  }
}

/** The matches that name `constituentId`, on either side. */
export const matchesOf = async (constituentId: string, status?: string) =>
  (await allMatches(status)).filter((m) => m.constituentId === constituentId || m.candidateConstituentId === constituentId)

export const ids = (matches: Match[]) => matches.map((m) => m.id)

export const search = async (query: string, token = tokens.admin) =>
  (await api.call<Constituent[]>('GET', `/api/constituents?query=${encodeURIComponent(query)}&limit=100`, { token })).body

/** Two constituents with the same phone: the second (the match's constituent) resembles the first (its candidate). */
export async function aPair(): Promise<{ candidate: Constituent; constituent: Constituent; match: Match }> {
  const phone = uniquePhone()
  const candidate = await register({ firstName: 'Cand', lastName: uniqueName(), phone, addressCity: 'Albany' })
  world.clock.advance(1000)
  const constituent = await register({ firstName: 'Const', lastName: uniqueName(), phone, email: uniqueEmail() })
  const [match] = await matchesOf(constituent.id)
  expect(match).toMatchObject({ constituentId: constituent.id, candidateConstituentId: candidate.id, status: 'OPEN' })
  return { candidate, constituent, match: match! }
}

export const resolve = (id: string, body: unknown, token = tokens.resolver) =>
  api.call<Match>('POST', `/api/household-matches/${id}/resolve`, { token, body })
