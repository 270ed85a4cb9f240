import { uniqueName, uniquePhone } from '../../support/builders'
import { afterAll, beforeAll, expect } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { aContact } from '../../support/builders'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { UNKNOWN_ID, type ConstituentFields } from './helpers'

// What the constituents-*.test.ts files share: one server a file, with two organizations, two partners and a
// member of each role the contract tells apart, and the ways to register, find and read people back.
// Each file calls `openConstituentsServer()` at its top; its tests reach the rest through these exports.
// Matches and their resolution: household-matches-*.test.ts.
export type Constituent = ConstituentFields & { id: string; householdId: string }
export type Need = Record<string, any> & { id: string; partnerId: string; customFields: Record<string, unknown> }

export interface Tokens {
  admin: string
  staff: string
  piiStaff: string
  contactStaff: string
  resolverStaff: string
  partnerAdminA: string
  agentA: string
  volunteerA: string
  intakeVolunteerA: string
  otherAdmin: string
}

export let api: TestServer
export let world: World
export let other: World
export let partnerA: Partner
export let partnerB: Partner
export let tokens: Tokens

/** Before the tests of the file that calls it: the server and its members; after them, the server stopped. */
export function openConstituentsServer(): void {
  beforeAll(async () => {
    api = await startTestServer()
    world = api.world
    other = await world.otherOrganization()
    partnerA = await world.partner({ name: 'Pantry A' })
    partnerB = await world.partner({ name: 'Pantry B' })
    const [admin, staff, piiStaff, contactStaff, resolverStaff, partnerAdminA, agentA, volunteerA, intakeVolunteerA, otherAdmin] =
      await Promise.all([
        api.tokenFor(world, 'org_admin'),
        api.tokenFor(world, 'staff'),
        api.tokenFor(world, 'staff', { profiles: ['pii_reader'] }),
        api.tokenFor(world, 'staff', { profiles: ['email_phone_communicator'] }),
        api.tokenFor(world, 'staff', { profiles: ['duplicate_resolver'] }),
        api.tokenFor(world, 'partner_admin', { partnerId: partnerA.id }),
        api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id }),
        api.tokenFor(world, 'volunteer', { partnerId: partnerA.id }),
        api.tokenFor(world, 'volunteer', { partnerId: partnerA.id, profiles: ['intake_staff'] }),
        api.tokenFor(other, 'org_admin'),
      ])
    tokens = { admin, staff, piiStaff, contactStaff, resolverStaff, partnerAdminA, agentA, volunteerA, intakeVolunteerA, otherAdmin }
  })
  afterAll(() => api.stop())
}

export async function register(body: Record<string, unknown>, token = tokens.admin): Promise<Constituent> {
  const response = await api.call<Constituent>('POST', '/api/constituents', { token, body })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

export const search = (query: string, token = tokens.admin, extra = '') =>
  api.call<Constituent[]>('GET', `/api/constituents?query=${encodeURIComponent(query)}${extra}`, { token })

/** The constituent as an org_admin sees it, found by a query that names it; undefined once it is gone. */
export async function readBack(id: string, query: string): Promise<Constituent | undefined> {
  const response = await search(query, tokens.admin, '&limit=100')
  expect(response.status).toBe(200)
  return response.body.find((c) => c.id === id)
}

export async function createNeed(body: Record<string, unknown>, token = tokens.admin): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

export const constituentNeeds = (id: string, token = tokens.admin, query = '') =>
  api.call<Need[]>('GET', `/api/constituents/${id}/needs${query}`, { token })

/** Every field, with a name and phone of its own: the tests of a file share one server. */
export function fullPerson(lastName = uniqueName()): Required<ConstituentFields> {
  return aContact({
    firstName: 'Ada',
    lastName,
    phone: uniquePhone(),
    email: `${lastName.toLowerCase()}@example.org`,
    addressCity: 'Albany',
  })
}

/** Invalid constituent fields, each a 400 naming the field (docs/api/conventions.md "Errors": never 422). */
export const INVALID_FIELDS: Array<[label: string, body: Record<string, unknown>, field: string]> = [
  ['a phone of seven digits, no area code', { phone: '555 1234' }, '/phone'],
  ['a phone with letters', { phone: '1-800-FLOWERS' }, '/phone'],
  ['a phone of 16 digits', { phone: '+1234567890123456' }, '/phone'],
  ['a phone starting +0', { phone: '+0551234567' }, '/phone'],
  ["addressState 'ZZ'", { addressState: 'ZZ' }, '/addressState'],
  ['a lower-case addressState', { addressState: 'ny' }, '/addressState'],
  ['a state name for addressState', { addressState: 'New York' }, '/addressState'],
  ["addressZip '1234'", { addressZip: '1234' }, '/addressZip'],
  ['a ZIP+4 addressZip', { addressZip: '12207-1234' }, '/addressZip'],
  ['a ZIP with letters', { addressZip: '1220A' }, '/addressZip'],
  ["dateOfBirth '2023-02-29' (not a leap year)", { dateOfBirth: '2023-02-29' }, '/dateOfBirth'],
  ["dateOfBirth '2023-13-01'", { dateOfBirth: '2023-13-01' }, '/dateOfBirth'],
  ["dateOfBirth '2023-04-31'", { dateOfBirth: '2023-04-31' }, '/dateOfBirth'],
  ["dateOfBirth '01/02/2003'", { dateOfBirth: '01/02/2003' }, '/dateOfBirth'],
  ['a dateOfBirth with a time', { dateOfBirth: '2003-01-02T00:00:00Z' }, '/dateOfBirth'],
  ['an email without @', { email: 'ada.example.org' }, '/email'],
  ['an email with a space', { email: 'ada lovelace@example.org' }, '/email'],
  ['an email without a domain dot', { email: 'ada@localhost' }, '/email'],
  ['an unknown property', { middleName: 'Augusta' }, '/middleName'],
  ['an organizationId', { organizationId: UNKNOWN_ID }, '/organizationId'],
  ['a phone as a number', { phone: 15551234567 }, '/phone'],
  ['a firstName as a number', { firstName: 42 }, '/firstName'],
  ['a lastName as an array', { lastName: ['Lovelace'] }, '/lastName'],
  ['an addressCity as an object', { addressCity: { name: 'Albany' } }, '/addressCity'],
  ['a dateOfBirth as a number', { dateOfBirth: 19901210 }, '/dateOfBirth'],
  ['a firstName of 201 characters', { firstName: 'x'.repeat(201) }, '/firstName'],
  ['an addressStreet of 201 characters', { addressStreet: 'x'.repeat(201) }, '/addressStreet'],
  ['an email of 255 characters', { email: `${'a'.repeat(243)}@example.org` }, '/email'],
]
