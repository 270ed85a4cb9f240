import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { claimsOf, expectBadRequest, expectProblem, ISO_MS, linksOf, pageOfLink, UNKNOWN_ID, type ConstituentFields } from './helpers'

// docs/api.md "Needs" (duplicate detection), docs/constituents.md (matches, resolution), docs/api.md "Permissions"; the interface; docs/constituents.md.
// Over real HTTP.
type Constituent = ConstituentFields & { id: string; householdId: string }
type Need = Record<string, any> & { id: string; constituentId?: string; householdId?: string; duplicateWarning?: string }
interface Match {
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

interface Tokens {
  admin: string
  resolver: string
  staff: string
  piiStaff: string
  partnerAdmin: string
  agent: string
  intakeVolunteer: string
  otherAdmin: string
}

let api: TestServer
let world: World
let other: World
let partner: Partner
let tokens: Tokens

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

const uniqueName = () =>
  `Zq${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 10)}`
let phoneCounter = 0
const uniquePhone = () => `+1555${String(4_000_000 + ++phoneCounter).padStart(7, '0')}`
const uniqueEmail = () => `${uniqueName().toLowerCase()}@example.org`

type PossibleDuplicate = { constituentId: string; reasons: string[] }
type Registered = Constituent & { possibleDuplicates?: PossibleDuplicate[]; duplicateWarning?: string }

/** The answer of POST /api/constituents: the constituent, and who it may be already. */
async function registered(body: Record<string, unknown>, token = tokens.admin): Promise<Registered> {
  const response = await api.call<Registered>('POST', '/api/constituents', { token, body })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

/** A constituent registered through POST /api/constituents, as it reads back. */
async function register(body: Record<string, unknown>, token = tokens.admin): Promise<Constituent> {
  const { possibleDuplicates: _p, duplicateWarning: _w, ...constituent } = await registered(body, token)
  return constituent
}

async function createNeed(body: Record<string, unknown>, token = tokens.admin): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

const readNeed = async (id: string, token = tokens.admin) => (await api.call<Need>('GET', `/api/needs/${id}`, { token })).body

/** Every match of the organization with `status` (all statuses when absent), through the pages. */
async function allMatches(status?: string, token = tokens.admin): Promise<Match[]> {
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
const matchesOf = async (constituentId: string, status?: string) =>
  (await allMatches(status)).filter((m) => m.constituentId === constituentId || m.candidateConstituentId === constituentId)

const ids = (matches: Match[]) => matches.map((m) => m.id)

const search = async (query: string, token = tokens.admin) =>
  (await api.call<Constituent[]>('GET', `/api/constituents?query=${encodeURIComponent(query)}&limit=100`, { token })).body

/** Two constituents with the same phone: the second (the match's constituent) resembles the first (its candidate). */
async function aPair(): Promise<{ candidate: Constituent; constituent: Constituent; match: Match }> {
  const phone = uniquePhone()
  const candidate = await register({ firstName: 'Cand', lastName: uniqueName(), phone, addressCity: 'Albany' })
  world.clock.advance(1000)
  const constituent = await register({ firstName: 'Const', lastName: uniqueName(), phone, email: uniqueEmail() })
  const [match] = await matchesOf(constituent.id)
  expect(match).toMatchObject({ constituentId: constituent.id, candidateConstituentId: candidate.id, status: 'OPEN' })
  return { candidate, constituent, match: match! }
}

const resolve = (id: string, body: unknown, token = tokens.resolver) =>
  api.call<Match>('POST', `/api/household-matches/${id}/resolve`, { token, body })

describe('duplicate detection through POST /api/needs', () => {
  test('a need whose contact keys share a phone gets duplicateWarning, a new constituent, and one open match', async () => {
    const phone = uniquePhone()
    const existing = await register({ firstName: 'Edith', lastName: uniqueName(), phone })
    const need = await createNeed({ customFields: { firstName: 'Edie', lastName: uniqueName(), phone, program: 'winter' } })

    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    expect(need.constituentId).toBeString()
    expect(need.constituentId).not.toBe(existing.id)
    expect(need.householdId).not.toBe(existing.householdId)
    // Who the new person may be is the creation's answer; the need keeps the warning.
    const { possibleDuplicates, ...stored } = need
    expect(possibleDuplicates).toEqual([{ constituentId: existing.id, reasons: ['same phone'] }])
    expect(await readNeed(need.id)).toEqual(stored)

    const matches = await matchesOf(need.constituentId!)
    expect(matches).toEqual([
      {
        id: expect.any(String),
        organizationId: world.organizationId,
        constituentId: need.constituentId!,
        candidateConstituentId: existing.id,
        constituent: expect.objectContaining({ id: need.constituentId!, firstName: 'Edie', phone }),
        candidate: existing,
        reason: 'same phone',
        reasons: ['same phone'],
        status: 'OPEN',
        createdAt: expect.stringMatching(ISO_MS),
      },
    ])
    // Found at a moment, shown with it: a time-ordered id (docs/api.md "Identifiers").
    expect(matches[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  test('two candidates: "Possible duplicate of 2 constituents", every reason once, one match each', async () => {
    const phone = uniquePhone()
    const email = uniqueEmail()
    const byPhone = await register({ firstName: 'Pat', lastName: uniqueName(), phone })
    const byEmail = await register({ firstName: 'Pat', lastName: uniqueName(), email: email.toUpperCase() })
    const need = await createNeed({ customFields: { firstName: 'Patricia', lastName: uniqueName(), phone, email } })

    expect(need.duplicateWarning).toBe('Possible duplicate of 2 constituents: same phone, same email')
    expect(
      need.possibleDuplicates.sort((a: PossibleDuplicate, b: PossibleDuplicate) => a.reasons[0]!.localeCompare(b.reasons[0]!)),
    ).toEqual([
      { constituentId: byEmail.id, reasons: ['same email'] },
      { constituentId: byPhone.id, reasons: ['same phone'] },
    ])
    const matches = await matchesOf(need.constituentId!)
    expect(matches.map((m) => [m.candidateConstituentId, m.reason]).sort()).toEqual(
      [
        [byPhone.id, 'same phone'],
        [byEmail.id, 'same email'],
      ].sort(),
    )
    for (const match of matches) expect(match).toMatchObject({ constituentId: need.constituentId, status: 'OPEN' })
  })

  test('one candidate sharing several keys is one match with every reason', async () => {
    const phone = uniquePhone()
    const email = uniqueEmail()
    const existing = await register({ firstName: 'Lee', lastName: uniqueName(), phone, email })
    const need = await createNeed({ customFields: { firstName: 'Lee', phone, email: email.toUpperCase() } })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone, same email')
    expect((await matchesOf(need.constituentId!)).map((m) => [m.candidateConstituentId, m.reason])).toEqual([
      [existing.id, 'same phone, same email'],
    ])
  })

  test('the same first and last name and date of birth match whatever the case, accents and punctuation', async () => {
    const lastName = `Núñez-${uniqueName()}`
    const existing = await register({ firstName: 'José', lastName, dateOfBirth: '1980-05-17' })
    const need = await createNeed({
      customFields: {
        firstName: 'JOSE',
        lastName: lastName.toLowerCase().replace('-', ' ').replace('ú', 'u').replace('ñ', 'n'),
        dateOfBirth: '1980-05-17',
      },
    })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same name and date of birth')
    expect((await matchesOf(need.constituentId!)).map((m) => m.candidateConstituentId)).toEqual([existing.id])

    // Another date of birth, or no date of birth: names alone are no duplicate.
    const otherBirth = await createNeed({ customFields: { firstName: 'José', lastName, dateOfBirth: '1980-05-18' } })
    const noBirth = await createNeed({ customFields: { firstName: 'José', lastName } })
    for (const need of [otherBirth, noBirth]) {
      expect(need).not.toHaveProperty('duplicateWarning')
      expect(await matchesOf(need.constituentId!)).toEqual([])
    }
  })

  test('the same last name and street address match, normalized the same way', async () => {
    const lastName = `O'${uniqueName()}`
    const existing = await register({ firstName: 'Maeve', lastName, addressStreet: '12 Main St.' })
    const need = await createNeed({
      customFields: { firstName: 'Sean', lastName: lastName.replace("'", '').toUpperCase(), addressStreet: '12  MAIN st' },
    })
    expect(need.duplicateWarning).toBe('Possible duplicate of 1 constituent: same last name and address')
    expect((await matchesOf(need.constituentId!)).map((m) => [m.candidateConstituentId, m.reason])).toEqual([
      [existing.id, 'same last name and address'],
    ])

    const elsewhere = await createNeed({ customFields: { lastName, addressStreet: '14 Main St.' } })
    expect(elsewhere).not.toHaveProperty('duplicateWarning')
  })

  test('without a candidate there is no duplicateWarning and no match', async () => {
    const need = await createNeed({
      customFields: { firstName: 'Unique', lastName: uniqueName(), phone: uniquePhone(), email: uniqueEmail() },
    })
    expect(need.constituentId).toBeString()
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(await readNeed(need.id)).not.toHaveProperty('duplicateWarning')
    expect(await matchesOf(need.constituentId!)).toEqual([])
  })

  test("another organization's constituents are never candidates, either way", async () => {
    const phone = uniquePhone()
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const need = await createNeed({ customFields: { firstName: 'Mine', phone } })
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(await matchesOf(need.constituentId!)).toEqual([])

    const theirNeed = await createNeed(
      { partnerId: other.defaultPartner.id, customFields: { firstName: 'Theirs again', phone } },
      tokens.otherAdmin,
    )
    expect(theirNeed.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    const theirMatches = await allMatches(undefined, tokens.otherAdmin)
    expect(theirMatches.map((m) => [m.constituentId, m.candidateConstituentId])).toContainEqual([theirNeed.constituentId!, theirs.id])
    for (const match of theirMatches) {
      expect(match.organizationId).toBe(other.organizationId)
      expect([match.constituentId, match.candidateConstituentId]).not.toContain(need.constituentId)
    }
  })

  test('a need naming its constituent registers no one and raises no warning', async () => {
    const phone = uniquePhone()
    const existing = await register({ firstName: 'Known', lastName: uniqueName(), phone })
    const someone = await register({ firstName: 'Someone', lastName: uniqueName() })
    const need = await createNeed({ constituentId: someone.id, customFields: { firstName: 'Known', phone } })
    expect(need).toMatchObject({ constituentId: someone.id, householdId: someone.householdId })
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(await matchesOf(existing.id)).toEqual([])
  })

  test('the public intake is checked too; the warning shows to staff only', async () => {
    const phone = uniquePhone()
    const existing = await register({ firstName: 'Walk', lastName: uniqueName(), phone })
    const response = await api.call<Need>('POST', '/api/needs/public', {
      body: { organizationId: world.organizationId, description: 'help with rent', customFields: { firstName: 'Walk', phone } },
    })
    expect(response.status).toBe(201)
    expect(response.body).not.toHaveProperty('duplicateWarning')
    const asStaff = await readNeed(response.body.id)
    expect(asStaff.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    expect((await matchesOf(asStaff.constituentId!)).map((m) => m.candidateConstituentId)).toEqual([existing.id])
  })

  test('registering through POST /api/constituents opens the match as well, and answers who it may be and why', async () => {
    const email = uniqueEmail()
    const existing = await registered({ firstName: 'First', lastName: uniqueName(), email })
    expect(existing).not.toHaveProperty('possibleDuplicates')
    expect(existing).not.toHaveProperty('duplicateWarning')
    const created = await registered({ firstName: 'Second', lastName: uniqueName(), email: email.toUpperCase() })
    expect(created.possibleDuplicates).toEqual([{ constituentId: existing.id, reasons: ['same email'] }])
    expect(created.duplicateWarning).toBe('Possible duplicate of 1 constituent: same email')
    expect((await matchesOf(created.id)).map((m) => [m.constituentId, m.candidateConstituentId, m.reason])).toEqual([
      [created.id, existing.id, 'same email'],
    ])
  })
})

describe('duplicate detection through PUT /api/constituents/{id}', () => {
  const put = (id: string, body: unknown, token = tokens.admin) => api.call<Constituent>('PUT', `/api/constituents/${id}`, { token, body })

  test('a match appears once a contact change makes two constituents alike', async () => {
    const phone = uniquePhone()
    const first = await register({ firstName: 'Ann', lastName: uniqueName(), phone })
    const second = await register({ firstName: 'Bea', lastName: uniqueName(), phone: uniquePhone() })
    expect(await matchesOf(second.id)).toEqual([])

    expect((await put(second.id, { phone })).status).toBe(200)
    expect(await matchesOf(second.id)).toEqual([
      expect.objectContaining({
        constituentId: second.id,
        candidateConstituentId: first.id,
        reason: 'same phone',
        status: 'OPEN',
        organizationId: world.organizationId,
      }),
    ])
  })

  test('name and date of birth, or last name and street, arriving by update also match', async () => {
    const lastName = uniqueName()
    const byBirth = await register({ firstName: 'Cleo', lastName, dateOfBirth: '1970-01-02' })
    const byStreet = await register({ firstName: 'Dora', lastName, addressStreet: '1 Elm Street' })
    const changing = await register({ firstName: 'Cleo', lastName: uniqueName() })
    await put(changing.id, { lastName, dateOfBirth: '1970-01-02' })
    expect((await matchesOf(changing.id)).map((m) => [m.candidateConstituentId, m.reason])).toEqual([
      [byBirth.id, 'same name and date of birth'],
    ])
    await put(changing.id, { addressStreet: '1 ELM street' })
    expect((await matchesOf(changing.id)).map((m) => [m.candidateConstituentId, m.reason]).sort()).toEqual(
      [
        [byBirth.id, 'same name and date of birth'],
        [byStreet.id, 'same last name and address'],
      ].sort(),
    )
  })

  test('a pair gets one match: a second change toward the same person adds none, a dismissal stands', async () => {
    const phone = uniquePhone()
    const email = uniqueEmail()
    const first = await register({ firstName: 'Eve', lastName: uniqueName(), phone, email })
    const second = await register({ firstName: 'Fay', lastName: uniqueName() })
    await put(second.id, { phone })
    const [match] = await matchesOf(second.id)
    expect((await resolve(match!.id, { action: 'DISMISS' })).status).toBe(200)
    await put(second.id, { email })
    await put(second.id, { phone: null })
    await put(second.id, { phone })
    expect(await matchesOf(second.id)).toEqual([
      expect.objectContaining({ id: match!.id, candidateConstituentId: first.id, status: 'DISMISSED' }),
    ])
  })

  test('fieldOverrides of a merge are a contact change too: the merged constituent is checked again', async () => {
    const phone = uniquePhone()
    const lookalike = await register({ firstName: 'Ivy', lastName: uniqueName(), phone })
    const source = await register({ firstName: 'Jo', lastName: uniqueName() })
    const target = await register({ firstName: 'Jo', lastName: uniqueName(), phone: uniquePhone() })
    const response = await api.call('POST', '/api/constituents/merge', {
      token: tokens.admin,
      body: { sourceConstituentId: source.id, targetConstituentId: target.id, fieldOverrides: { phone } },
    })
    expect(response.status).toBe(200)
    expect((await matchesOf(target.id)).map((m) => [m.constituentId, m.candidateConstituentId, m.reason, m.status])).toEqual([
      [target.id, lookalike.id, 'same phone', 'OPEN'],
    ])
  })

  test('a change to a field detection does not look at opens no match', async () => {
    const zip = '12207'
    await register({ firstName: 'Gil', lastName: uniqueName(), addressZip: zip, addressCity: 'Albany' })
    const changing = await register({ firstName: 'Hal', lastName: uniqueName() })
    await put(changing.id, { addressZip: zip, addressCity: 'Albany', addressState: 'NY' })
    expect(await matchesOf(changing.id)).toEqual([])
  })
})

describe('GET /api/household-matches', () => {
  let open: Awaited<ReturnType<typeof aPair>>
  let dismissed: Awaited<ReturnType<typeof aPair>>
  let resolved: Awaited<ReturnType<typeof aPair>>
  let theirMatch: Match

  beforeAll(async () => {
    world.clock.advance(60_000)
    open = await aPair()
    dismissed = await aPair()
    resolved = await aPair()
    expect((await resolve(dismissed.match.id, { action: 'DISMISS' })).status).toBe(200)
    expect((await resolve(resolved.match.id, { action: 'MERGE_HOUSEHOLD' })).status).toBe(200)
    const phone = uniquePhone()
    await register({ firstName: 'T1', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const theirs = await register({ firstName: 'T2', lastName: uniqueName(), phone }, tokens.otherAdmin)
    theirMatch = (await allMatches('OPEN', tokens.otherAdmin)).find((m) => m.constituentId === theirs.id)!
  })

  test('filters by status; without one, every match; newest first', async () => {
    const openIds = ids(await allMatches('OPEN'))
    const resolvedIds = ids(await allMatches('RESOLVED'))
    const dismissedIds = ids(await allMatches('DISMISSED'))
    expect(openIds).toContain(open.match.id)
    expect(openIds).not.toContain(dismissed.match.id)
    expect(openIds).not.toContain(resolved.match.id)
    expect(resolvedIds).toContain(resolved.match.id)
    expect(resolvedIds).not.toContain(open.match.id)
    expect(dismissedIds).toContain(dismissed.match.id)
    expect(dismissedIds).not.toContain(resolved.match.id)
    for (const status of ['OPEN', 'RESOLVED', 'DISMISSED'] as const) for (const m of await allMatches(status)) expect(m.status).toBe(status)

    const all = ids(await allMatches())
    expect(all.length).toBe(openIds.length + resolvedIds.length + dismissedIds.length)
    // The three pairs were made in this order, a second apart.
    const positions = [resolved, dismissed, open].map((p) => all.indexOf(p.match.id))
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
  })

  test('each match carries both people and its reasons, enough to judge it without another call', async () => {
    const [listed] = (await allMatches('OPEN')).filter((m) => m.id === open.match.id)
    expect(listed).toMatchObject({
      reason: 'same phone',
      reasons: ['same phone'],
      constituent: open.constituent,
      candidate: open.candidate,
    })

    const phone = uniquePhone()
    const email = uniqueEmail()
    const first = await register({ firstName: 'Rey', lastName: uniqueName(), phone, email })
    const second = await register({ firstName: 'Ray', lastName: uniqueName(), phone, email })
    const [both] = await matchesOf(second.id)
    expect(both).toMatchObject({
      reason: 'same phone, same email',
      reasons: ['same phone', 'same email'],
      constituent: second,
      candidate: first,
    })
  })

  test("the people are redacted as the caller's role requires: names always, contact details only with the permission", async () => {
    const [asResolver] = (await allMatches('OPEN', tokens.resolver)).filter((m) => m.id === open.match.id)
    const names = (c: Constituent) => ({ id: c.id, householdId: c.householdId, firstName: c.firstName, lastName: c.lastName })
    expect(asResolver!.constituent).toEqual(names(open.constituent))
    expect(asResolver!.candidate).toEqual(names(open.candidate))
    expect(asResolver!.reasons).toEqual(['same phone'])
  })

  test('a side merged into another person is absent from the match', async () => {
    const pair = await aPair()
    expect((await resolve(pair.match.id, { action: 'MERGE_CONSTITUENT' })).status).toBe(200)
    const [merged] = (await allMatches('RESOLVED')).filter((m) => m.id === pair.match.id)
    expect(merged!.constituent).toBeUndefined()
    expect(merged!.candidate).toMatchObject({ id: pair.candidate.id, firstName: 'Cand' })
  })

  test('a decided match carries its decision: who, when and what', async () => {
    const [decided] = (await allMatches('DISMISSED')).filter((m) => m.id === dismissed.match.id)
    expect(decided).toEqual({
      ...dismissed.match,
      status: 'DISMISSED',
      action: 'DISMISS',
      resolvedAt: expect.stringMatching(ISO_MS),
      resolvedBy: claimsOf(tokens.resolver).sub,
    })
  })

  test('pages with X-Total-Count and Link headers that keep the status filter', async () => {
    await aPair()
    await aPair()
    const total = (await allMatches('OPEN')).length
    const page1 = await api.call<Match[]>('GET', '/api/household-matches?status=OPEN&limit=1', { token: tokens.admin })
    const page2 = await api.call<Match[]>('GET', '/api/household-matches?status=OPEN&limit=1&page=2', { token: tokens.admin })
    expect(page1.status).toBe(200)
    expect(page1.body).toHaveLength(1)
    expect(page2.body).toHaveLength(1)
    expect(page1.body[0]!.id).not.toBe(page2.body[0]!.id)
    expect(page1.headers.get('x-total-count')).toBe(String(total))
    const links = linksOf(page1)
    expect(pageOfLink(links.next)).toEqual({ page: 2, limit: 1 })
    expect(pageOfLink(links.last)).toEqual({ page: total, limit: 1 })
    expect(new URL(links.next!, 'http://x').searchParams.get('status')).toBe('OPEN')
    expect(new URL(links.next!, 'http://x').pathname).toBe('/api/household-matches')
  })

  test.each([
    ['status=open', 'query/status'],
    ['status=CLOSED', 'query/status'],
    ['status=OPEN,RESOLVED', 'query/status'],
    ['page=x', 'query/page'],
    ['page=0', undefined],
    ['limit=101', undefined],
    ['constituentId=abc', undefined],
  ])('?%s is a 400', async (query, field) => {
    const response = await api.call('GET', `/api/household-matches?${query}`, { token: tokens.admin })
    expect(response.status).not.toBe(422)
    const body = expectBadRequest(response, field)
    if (field === 'query/status')
      expect(body.errors!.find((e) => e.path === 'query/status')!.message).toContain('OPEN, RESOLVED, DISMISSED')
  })

  test('only org_admin or the duplicate_resolver profile may list them (403 for the rest)', async () => {
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdmin, tokens.agent, tokens.intakeVolunteer]) {
      expectProblem(await api.call('GET', '/api/household-matches', { token }), 403, 'Forbidden')
    }
    expect(ids(await allMatches('OPEN', tokens.resolver))).toContain(open.match.id)
  })

  test("another organization's matches never show, and it sees only its own", async () => {
    const mine = await allMatches()
    expect(ids(mine)).not.toContain(theirMatch.id)
    for (const m of mine) expect(m.organizationId).toBe(world.organizationId)
    const theirs = await allMatches(undefined, tokens.otherAdmin)
    expect(ids(theirs)).toContain(theirMatch.id)
    for (const m of theirs) expect(m.organizationId).toBe(other.organizationId)
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', '/api/household-matches'), 401, 'Unauthorized')
    expectProblem(await api.call('GET', '/api/household-matches?status=OPEN'), 401, 'Unauthorized')
  })
})

describe('POST /api/household-matches/{id}/resolve', () => {
  test('DISMISS: 200 with the dismissed match; both constituents stay as they were', async () => {
    const { candidate, constituent, match } = await aPair()
    const response = await resolve(match.id, { action: 'DISMISS' })
    expect(response.status).toBe(200)
    // The resolver may read names only: both people come back as it sees them.
    const names = (c: Constituent) => ({ id: c.id, householdId: c.householdId, firstName: c.firstName, lastName: c.lastName })
    expect(response.body).toEqual({
      ...match,
      constituent: names(constituent),
      candidate: names(candidate),
      status: 'DISMISSED',
      action: 'DISMISS',
      resolvedAt: expect.stringMatching(ISO_MS),
      resolvedBy: claimsOf(tokens.resolver).sub,
    })
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await search(constituent.lastName!)).toEqual([constituent])
    expect(ids(await allMatches('DISMISSED'))).toContain(match.id)
    expect(ids(await allMatches('OPEN'))).not.toContain(match.id)
  })

  test("MERGE_HOUSEHOLD: the constituent joins the candidate's household, its needs too; both remain", async () => {
    const { candidate, constituent, match } = await aPair()
    const need = await createNeed({ constituentId: constituent.id })
    const response = await resolve(match.id, { action: 'MERGE_HOUSEHOLD' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      id: match.id,
      status: 'RESOLVED',
      action: 'MERGE_HOUSEHOLD',
      resolvedBy: claimsOf(tokens.resolver).sub,
    })
    expect(response.body.resolvedAt).toMatch(ISO_MS)

    expect(await search(constituent.lastName!)).toEqual([{ ...constituent, householdId: candidate.householdId }])
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await readNeed(need.id)).toMatchObject({ constituentId: constituent.id, householdId: candidate.householdId })
  })

  test('MERGE_CONSTITUENT: by default the constituent merges into the candidate, needs and all', async () => {
    const { candidate, constituent, match } = await aPair()
    const need = await createNeed({ constituentId: constituent.id })
    const response = await resolve(match.id, { action: 'MERGE_CONSTITUENT' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ id: match.id, status: 'RESOLVED', action: 'MERGE_CONSTITUENT' })

    expect(await search(constituent.lastName!)).toEqual([])
    expectProblem(await api.call('GET', `/api/constituents/${constituent.id}/needs`, { token: tokens.admin }), 404, 'Not found')
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await readNeed(need.id)).toMatchObject({ constituentId: candidate.id, householdId: candidate.householdId })
  })

  test('MERGE_CONSTITUENT with targetConstituentId and fieldOverrides: the other one merges into the target, which takes the overrides', async () => {
    const { candidate, constituent, match } = await aPair()
    const need = await createNeed({ constituentId: candidate.id })
    const response = await resolve(match.id, {
      action: 'MERGE_CONSTITUENT',
      targetConstituentId: constituent.id,
      fieldOverrides: { firstName: 'Merged', addressCity: 'Albany', email: null },
    })
    expect(response.status).toBe(200)
    expect(response.body.status).toBe('RESOLVED')

    expect(await search(candidate.lastName!)).toEqual([])
    const { email: _cleared, ...kept } = constituent
    expect(await search(constituent.lastName!)).toEqual([{ ...kept, firstName: 'Merged', addressCity: 'Albany' }])
    expect(await readNeed(need.id)).toMatchObject({ constituentId: constituent.id, householdId: constituent.householdId })
  })

  test("a manual merge resolves the pair's open match; the open matches of the removed constituent follow the target", async () => {
    const phone = uniquePhone()
    const a = await register({ firstName: 'A', lastName: uniqueName(), phone })
    const b = await register({ firstName: 'B', lastName: uniqueName(), phone })
    const c = await register({ firstName: 'C', lastName: uniqueName(), phone })
    const d = await register({ firstName: 'D', lastName: uniqueName(), email: uniqueEmail() })
    await api.call('PUT', `/api/constituents/${d.id}`, { token: tokens.admin, body: { phone } })
    const pairOf = (m: Match) => [m.constituentId, m.candidateConstituentId].sort().join()
    const ab = (await matchesOf(b.id)).find((m) => pairOf(m) === [a.id, b.id].sort().join())!
    expect(ab.status).toBe('OPEN')

    const response = await api.call('POST', '/api/constituents/merge', {
      token: tokens.resolver,
      body: { sourceConstituentId: b.id, targetConstituentId: a.id },
    })
    expect(response.status).toBe(200)

    // The merged pair's match records the merge; no open match names the removed constituent.
    expect(await matchesOf(b.id)).toEqual([
      {
        ...ab,
        constituent: undefined,
        status: 'RESOLVED',
        action: 'MERGE_CONSTITUENT',
        resolvedAt: expect.stringMatching(ISO_MS),
        resolvedBy: claimsOf(tokens.resolver).sub,
      },
    ])
    const open = await matchesOf(a.id, 'OPEN')
    const pairs = open.map(pairOf)
    expect(pairs.sort()).toEqual([[a.id, c.id].sort().join(), [a.id, d.id].sort().join()].sort())
    for (const match of open) expect([match.constituentId, match.candidateConstituentId]).not.toContain(b.id)
  })

  test('resolving a match a second time is 409 Conflict, whatever the action, and the first decision stands', async () => {
    const { match } = await aPair()
    const first = await resolve(match.id, { action: 'DISMISS' })
    expect(first.status).toBe(200)
    for (const body of [{ action: 'DISMISS' }, { action: 'MERGE_HOUSEHOLD' }, { action: 'MERGE_CONSTITUENT' }]) {
      expectProblem(await resolve(match.id, body), 409, 'Conflict')
    }
    expect((await allMatches('DISMISSED', tokens.resolver)).find((m) => m.id === match.id)).toEqual(first.body)

    const merged = await aPair()
    expect((await resolve(merged.match.id, { action: 'MERGE_CONSTITUENT' })).status).toBe(200)
    expectProblem(await resolve(merged.match.id, { action: 'DISMISS' }), 409, 'Conflict')
  })

  test("a targetConstituentId outside the match's pair is a 400, and nothing happens", async () => {
    const { candidate, constituent, match } = await aPair()
    const stranger = await register({ firstName: 'Stranger', lastName: uniqueName() })
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName() }, tokens.otherAdmin)
    for (const targetConstituentId of [stranger.id, theirs.id, UNKNOWN_ID]) {
      expectBadRequest(await resolve(match.id, { action: 'MERGE_CONSTITUENT', targetConstituentId }), '/targetConstituentId')
    }
    expect((await matchesOf(constituent.id))[0]).toEqual(match)
    expect(await search(candidate.lastName!)).toEqual([candidate])
    expect(await search(constituent.lastName!)).toEqual([constituent])
  })

  test('targetConstituentId or fieldOverrides with another action than MERGE_CONSTITUENT is a 400', async () => {
    const { candidate, match } = await aPair()
    for (const action of ['DISMISS', 'MERGE_HOUSEHOLD']) {
      expectBadRequest(await resolve(match.id, { action, targetConstituentId: candidate.id }), '/action')
      expectBadRequest(await resolve(match.id, { action, fieldOverrides: { firstName: 'x' } }), '/action')
    }
    expect((await matchesOf(candidate.id))[0]!.status).toBe('OPEN')
  })

  test.each([
    ['an unknown action', { action: 'MERGE' }, '/action'],
    ['a lower-case action', { action: 'dismiss' }, '/action'],
    ['no action', {}, '/action'],
    ['an action of the wrong type', { action: 1 }, '/action'],
    ['an unknown property', { action: 'DISMISS', reason: 'not them' }, '/reason'],
    ['a malformed targetConstituentId', { action: 'MERGE_CONSTITUENT', targetConstituentId: 'abc' }, '/targetConstituentId'],
    [
      'a fieldOverrides phone that is not E.164',
      { action: 'MERGE_CONSTITUENT', fieldOverrides: { phone: '555-1234' } },
      '/fieldOverrides/phone',
    ],
    [
      "a fieldOverrides dateOfBirth '2023-13-01'",
      { action: 'MERGE_CONSTITUENT', fieldOverrides: { dateOfBirth: '2023-13-01' } },
      '/fieldOverrides/dateOfBirth',
    ],
    [
      "a fieldOverrides addressState 'ZZ'",
      { action: 'MERGE_CONSTITUENT', fieldOverrides: { addressState: 'ZZ' } },
      '/fieldOverrides/addressState',
    ],
    ['an unknown key in fieldOverrides', { action: 'MERGE_CONSTITUENT', fieldOverrides: { nickname: 'x' } }, '/fieldOverrides/nickname'],
  ])('%s is a 400 naming it, and the match stays open', async (_label, body, field) => {
    const { constituent, match } = await aPair()
    const response = await resolve(match.id, body)
    expect(response.status).not.toBe(422)
    const problem = expectBadRequest(response, field)
    if (field === '/action' && 'action' in body && typeof body.action === 'string') {
      expect(problem.errors!.find((e) => e.path === '/action')!.message).toContain('MERGE_CONSTITUENT, MERGE_HOUSEHOLD, DISMISS')
    }
    expect((await matchesOf(constituent.id))[0]).toEqual(match)
  })

  test('a malformed id is a 400; an unknown id is 404 Household match not found', async () => {
    expectBadRequest(await resolve('not-a-uuid', { action: 'DISMISS' }), 'id')
    expectProblem(await resolve(UNKNOWN_ID, { action: 'DISMISS' }), 404, 'Not found')
  })

  test("another organization's match is 404, exactly as an unknown id, and stays open", async () => {
    const phone = uniquePhone()
    await register({ firstName: 'T1', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const theirs = await register({ firstName: 'T2', lastName: uniqueName(), phone }, tokens.otherAdmin)
    const theirMatch = (await allMatches('OPEN', tokens.otherAdmin)).find((m) => m.constituentId === theirs.id)!
    for (const body of [{ action: 'DISMISS' }, { action: 'MERGE_CONSTITUENT' }, { action: 'MERGE_HOUSEHOLD' }]) {
      const response = await resolve(theirMatch.id, body, tokens.admin)
      expectProblem(response, 404, 'Not found')
      expect(response.body).toEqual((await resolve(UNKNOWN_ID, body, tokens.admin)).body)
    }
    expect((await allMatches('OPEN', tokens.otherAdmin)).find((m) => m.id === theirMatch.id)).toEqual(theirMatch)
    expect(await search(theirs.lastName!, tokens.otherAdmin)).toEqual([theirs])
  })

  test('only org_admin or the duplicate_resolver profile may resolve (403 for the rest)', async () => {
    const { match } = await aPair()
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdmin, tokens.agent, tokens.intakeVolunteer]) {
      expectProblem(await resolve(match.id, { action: 'DISMISS' }, token), 403, 'Forbidden')
    }
    expect((await allMatches('OPEN')).find((m) => m.id === match.id)).toEqual(match)
    const response = await resolve(match.id, { action: 'DISMISS' }, tokens.admin)
    expect(response.status).toBe(200)
    expect(response.body.resolvedBy).toBe(claimsOf(tokens.admin).sub)
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    const { match } = await aPair()
    expectProblem(
      await api.call('POST', `/api/household-matches/${match.id}/resolve`, { body: { action: 'DISMISS' } }),
      401,
      'Unauthorized',
    )
    expectProblem(await api.call('POST', `/api/household-matches/${match.id}/resolve`, { body: { action: 'NOPE' } }), 401, 'Unauthorized')
    expect((await allMatches('OPEN')).find((m) => m.id === match.id)).toEqual(match)
  })
})
