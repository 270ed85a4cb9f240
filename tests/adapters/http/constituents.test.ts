import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Partner } from '../../../src/domain/partners/partner'
import { aContact } from '../../support/builders'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, linksOf, pageOfLink, UNKNOWN_ID, type ConstituentFields } from './helpers'

// docs/api.md "Errors", docs/constituents.md, docs/api.md "Permissions"; docs/constituents.md. Over real HTTP.
// Matches and their resolution: household-matches.test.ts.
type Constituent = ConstituentFields & { id: string; householdId: string }
type Need = Record<string, any> & { id: string; partnerId: string; customFields: Record<string, unknown> }

interface Tokens {
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

let api: TestServer
let world: World
let other: World
let partnerA: Partner
let partnerB: Partner
let tokens: Tokens

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

/** A last name no other test uses, so a search by it finds only what the test made. */
const uniqueName = () =>
  `Zq${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 10)}`

/** A phone number no other test uses. */
let phoneCounter = 0
const uniquePhone = () => `+1555${String(3_000_000 + ++phoneCounter).padStart(7, '0')}`

async function register(body: Record<string, unknown>, token = tokens.admin): Promise<Constituent> {
  const response = await api.call<Constituent>('POST', '/api/constituents', { token, body })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

const search = (query: string, token = tokens.admin, extra = '') =>
  api.call<Constituent[]>('GET', `/api/constituents?query=${encodeURIComponent(query)}${extra}`, { token })

/** The constituent as an org_admin sees it, found by a query that names it; undefined once it is gone. */
async function readBack(id: string, query: string): Promise<Constituent | undefined> {
  const response = await search(query, tokens.admin, '&limit=100')
  expect(response.status).toBe(200)
  return response.body.find((c) => c.id === id)
}

async function createNeed(body: Record<string, unknown>, token = tokens.admin): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}

const constituentNeeds = (id: string, token = tokens.admin, query = '') =>
  api.call<Need[]>('GET', `/api/constituents/${id}/needs${query}`, { token })

const ALL_FIELDS = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'dateOfBirth',
  'addressStreet',
  'addressCity',
  'addressState',
  'addressZip',
] as const
const NAMES = ['firstName', 'lastName']
const NAMES_PHONE_EMAIL = ['firstName', 'lastName', 'phone', 'email']

/** Every field, with a name and phone of its own: the suite shares one server. */
function fullPerson(lastName = uniqueName()): Required<ConstituentFields> {
  return aContact({
    firstName: 'Ada',
    lastName,
    phone: uniquePhone(),
    email: `${lastName.toLowerCase()}@example.org`,
    addressCity: 'Albany',
  })
}

/** Invalid constituent fields, each a 400 naming the field (docs/api.md "Errors": never 422). */
const INVALID_FIELDS: Array<[label: string, body: Record<string, unknown>, field: string]> = [
  ['a phone without its +', { phone: '5551234567' }, '/phone'],
  ['a phone with punctuation', { phone: '+1 (555) 123-4567' }, '/phone'],
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

describe('POST /api/constituents', () => {
  test('answers 201 with the constituent in a household of its own; surrounding spaces trimmed, nothing else added', async () => {
    const person = fullPerson()
    const response = await api.call<Constituent>('POST', '/api/constituents', {
      token: tokens.admin,
      body: { ...person, firstName: '  Ada  ', addressCity: ' Albany ' },
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    const created = response.body
    expect(created).toEqual({ id: expect.any(String), householdId: expect.any(String), ...person })
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(await readBack(created.id, person.lastName)).toEqual(created)

    const another = await register({ firstName: 'Grace', lastName: uniqueName() })
    expect(Object.keys(another).sort()).toEqual(['firstName', 'householdId', 'id', 'lastName'])
    expect(another.householdId).not.toBe(created.householdId)
  })

  test('takes real edge dates and every kind of state code', async () => {
    for (const [dateOfBirth, addressState] of [
      ['2024-02-29', 'DC'],
      ['2000-02-29', 'PR'],
      ['1900-01-01', 'AE'],
    ] as const) {
      const created = await register({ lastName: uniqueName(), dateOfBirth, addressState })
      expect(created).toMatchObject({ dateOfBirth, addressState })
    }
  })

  test('a householdId puts the constituent into that household', async () => {
    const first = await register({ firstName: 'Mary', lastName: uniqueName() })
    const second = await register({ firstName: 'Percy', lastName: uniqueName(), householdId: first.householdId })
    expect(second.householdId).toBe(first.householdId)
  })

  test("an unknown householdId or another organization's is a 400 naming it, and no one is registered", async () => {
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName() }, tokens.otherAdmin)
    for (const householdId of [UNKNOWN_ID, theirs.householdId]) {
      const lastName = uniqueName()
      expectBadRequest(
        await api.call('POST', '/api/constituents', { token: tokens.admin, body: { lastName, householdId } }),
        '/householdId',
      )
      expect((await search(lastName)).body).toEqual([])
    }
  })

  test.each(INVALID_FIELDS)('%s is a 400 naming the field', async (_label, body, field) => {
    const response = await api.call('POST', '/api/constituents', { token: tokens.admin, body: { firstName: 'Ada', ...body } })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
  })

  test('null is no value on create: a 400', async () => {
    expectBadRequest(
      await api.call('POST', '/api/constituents', { token: tokens.admin, body: { firstName: 'Ada', phone: null } }),
      '/phone',
    )
  })

  test('names every offending field at once', async () => {
    const response = await api.call('POST', '/api/constituents', {
      token: tokens.admin,
      body: { phone: '555', addressZip: '1234', email: 'nope', firstName: 7 },
    })
    const body = expectBadRequest(response)
    const paths = body.errors!.map((e) => e.path)
    for (const field of ['/phone', '/addressZip', '/email', '/firstName']) expect(paths).toContain(field)
  })

  test('an empty body, or only blank fields, is a 400: a record with nothing in it serves no one', async () => {
    expectBadRequest(await api.call('POST', '/api/constituents', { token: tokens.admin, body: {} }))
    expectBadRequest(await api.call('POST', '/api/constituents', { token: tokens.admin, body: { firstName: '   ', lastName: '' } }))
  })

  test('malformed JSON and a non-object body are 400s', async () => {
    expectBadRequest(
      await api.call('POST', '/api/constituents', {
        token: tokens.admin,
        raw: '{"firstName":',
        headers: { 'content-type': 'application/json' },
      }),
    )
    expectBadRequest(await api.call('POST', '/api/constituents', { token: tokens.admin, body: ['Ada'] }))
  })

  test('caseworker roles and intake volunteers register constituents; a plain volunteer may not (403)', async () => {
    for (const token of [tokens.staff, tokens.partnerAdminA, tokens.agentA, tokens.intakeVolunteerA]) {
      await register({ firstName: 'Someone', lastName: uniqueName() }, token)
    }
    const lastName = uniqueName()
    expectProblem(await api.call('POST', '/api/constituents', { token: tokens.volunteerA, body: { lastName } }), 403, 'Forbidden')
    expect((await search(lastName)).body).toEqual([])
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    expectProblem(await api.call('POST', '/api/constituents', { body: { firstName: 'Ada' } }), 401, 'Unauthorized')
    expectProblem(await api.call('POST', '/api/constituents', { body: { phone: 'bad' } }), 401, 'Unauthorized')
  })
})

describe('GET /api/constituents', () => {
  // Names and numbers used only here: 'jos' and 555-222 find nothing else in this organization.
  let jose: Constituent
  let josefina: Constituent
  let joskowitz: Constituent
  let london: Constituent
  let theirJose: Constituent

  beforeAll(async () => {
    world.clock.advance(60_000)
    jose = await register({ firstName: 'José', lastName: 'Núñez', phone: '+15552220001', email: 'Jose.Nunez@Example.org' })
    world.clock.advance(1000)
    josefina = await register({ firstName: 'Josefina', lastName: 'Park', phone: '+15552220002' })
    world.clock.advance(1000)
    joskowitz = await register({ firstName: 'Ana', lastName: 'Joskowitz' })
    world.clock.advance(1000)
    london = await register({ firstName: 'Bob', lastName: 'Smith', phone: '+442071234567' })
    // The same person on file with another organization: never found from this one.
    theirJose = await register(
      { firstName: 'José', lastName: 'Núñez', phone: '+15552220001', email: 'jose.nunez@example.org' },
      tokens.otherAdmin,
    )
  })

  const ids = async (query: string, token = tokens.admin) => {
    const response = await search(query, token)
    expect(response.status).toBe(200)
    return response.body.map((c) => c.id)
  }

  test('answers the plain array of constituents, newest first, with X-Total-Count and Link', async () => {
    const response = await search('jos')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.body).toEqual([joskowitz, josefina, jose])
    expect(response.headers.get('x-total-count')).toBe('3')
    const links = linksOf(response)
    expect(pageOfLink(links.first)).toEqual({ page: 1, limit: 25 })
    expect(pageOfLink(links.last)).toEqual({ page: 1, limit: 25 })
    expect(links.next).toBeUndefined()
  })

  test('name prefixes match the first or the last name, whatever the case and accents', async () => {
    expect(await ids('jos')).toEqual([joskowitz.id, josefina.id, jose.id])
    expect(await ids('JOS')).toEqual([joskowitz.id, josefina.id, jose.id])
    expect(await ids('josé')).toEqual([josefina.id, jose.id])
    expect(await ids('JOSE')).toEqual([josefina.id, jose.id])
    expect(await ids('nun')).toEqual([jose.id])
    expect(await ids('NÚÑEZ')).toEqual([jose.id])
    expect(await ids('nunez')).toEqual([jose.id])
    expect(await ids('park')).toEqual([josefina.id])
  })

  test('every word must begin a name, in any order', async () => {
    expect(await ids('jos nun')).toEqual([jose.id])
    expect(await ids('Núñez José')).toEqual([jose.id])
    expect(await ids('josefina park')).toEqual([josefina.id])
    expect(await ids('jose park')).toEqual([josefina.id])
    expect(await ids('jose smith')).toEqual([])
  })

  test('a word inside a name, not at its start, does not match', async () => {
    expect(await ids('ose')).toEqual([])
    expect(await ids('nez')).toEqual([])
    expect(await ids('kowitz')).toEqual([])
  })

  test('phone digits match with or without +1 and whatever the punctuation', async () => {
    for (const query of [
      '+15552220001',
      '15552220001',
      '5552220001',
      '(555) 222-0001',
      '+1 555.222.0001',
      '1-555-222-0001',
      ' 555 222 0001 ',
    ]) {
      expect({ query, ids: await ids(query) }).toEqual({ query, ids: [jose.id] })
    }
    expect(await ids('555 222')).toEqual([josefina.id, jose.id])
    expect(await ids('+1 (555) 222')).toEqual([josefina.id, jose.id])
    expect(await ids('+442071234567')).toEqual([london.id])
    expect(await ids('4420')).toEqual([london.id])
  })

  test('phone digits match any part of the number, and nothing else', async () => {
    expect(await ids('2220001')).toEqual([jose.id])
    expect(await ids('555 999 0000')).toEqual([])
  })

  test('an email matches whole, case-insensitive', async () => {
    expect(await ids('jose.nunez@example.org')).toEqual([jose.id])
    expect(await ids('JOSE.NUNEZ@EXAMPLE.ORG')).toEqual([jose.id])
    expect(await ids('  Jose.Nunez@Example.org  ')).toEqual([jose.id])
    expect(await ids('jose.nunez@')).toEqual([])
    expect(await ids('nunez@example.org')).toEqual([])
  })

  test('no query, or an empty one, lists every constituent of the organization', async () => {
    for (const path of ['/api/constituents?limit=100', '/api/constituents?query=&limit=100', '/api/constituents?query=%20%20&limit=100']) {
      // Other tests add constituents too: read every page.
      const listed: string[] = []
      let total = 0
      for (let page = 1; page === 1 || listed.length < total; page++) {
        const response = await api.call<Constituent[]>('GET', `${path}&page=${page}`, { token: tokens.admin })
        expect(response.status).toBe(200)
        expect(response.body.length).toBeGreaterThan(0)
        listed.push(...response.body.map((c) => c.id))
        total = Number(response.headers.get('x-total-count'))
      }
      for (const mine of [jose, josefina, joskowitz, london]) expect(listed).toContain(mine.id)
      expect(listed).not.toContain(theirJose.id)
      expect(new Set(listed).size).toBe(total)
    }
  })

  test('pages with Link headers that keep the query', async () => {
    const page1 = await search('jos', tokens.admin, '&limit=2')
    const page2 = await search('jos', tokens.admin, '&limit=2&page=2')
    expect(page1.body.map((c) => c.id)).toEqual([joskowitz.id, josefina.id])
    expect(page2.body.map((c) => c.id)).toEqual([jose.id])
    for (const page of [page1, page2]) expect(page.headers.get('x-total-count')).toBe('3')
    const links = linksOf(page1)
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next'])
    expect(pageOfLink(links.next)).toEqual({ page: 2, limit: 2 })
    expect(new URL(links.next!, 'http://x').searchParams.get('query')).toBe('jos')
    expect(new URL(links.next!, 'http://x').pathname).toBe('/api/constituents')
    const links2 = linksOf(page2)
    expect(Object.keys(links2).sort()).toEqual(['first', 'last', 'prev'])
    expect(pageOfLink(links2.prev)).toEqual({ page: 1, limit: 2 })
    // Past the end: an empty page, still counted.
    const past = await search('jos', tokens.admin, '&limit=2&page=5')
    expect(past.body).toEqual([])
    expect(past.headers.get('x-total-count')).toBe('3')
  })

  // An out-of-range page or limit is a 400 whose error path does not name the parameter (it says
  // "property"), on every list: reported, so only the status is held here for those.
  test.each([
    ['page=0', undefined],
    ['page=-1', undefined],
    ['page=x', 'query/page'],
    ['limit=0', undefined],
    ['limit=101', undefined],
    ['limit=ten', 'query/limit'],
    ['sort=name', undefined],
    [`query=${'a'.repeat(201)}`, 'query/query'],
  ])('?%s is a 400', async (query, field) => {
    const response = await api.call('GET', `/api/constituents?${query}`, { token: tokens.admin })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
  })

  test('search syntax in the query is taken as text, never interpreted', async () => {
    for (const query of ['"', 'jos*', 'NEAR(jos nun)', 'jos OR park', '-jos', "o'brien", '^jos', '%', '_', 'jos" OR "o']) {
      const response = await search(query)
      expect({ query, status: response.status }).toEqual({ query, status: 200 })
      expect(response.body.map((c) => c.id)).not.toContain(theirJose.id)
    }
    // Punctuation separates words; OR and NEAR are words like any other.
    expect(await ids('jos*')).toEqual([joskowitz.id, josefina.id, jose.id])
    expect(await ids('jos OR park')).toEqual([])
    expect(await ids('NEAR(jos nun)')).toEqual([])
  })

  test('searching by phone or email needs the permission to read them: 403 without it, whatever the name permissions', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.intakeVolunteerA]) {
      for (const query of ['+15552220001', '555 222', 'jose.nunez@example.org']) expectProblem(await search(query, token), 403, 'Forbidden')
    }
    for (const token of [tokens.admin, tokens.partnerAdminA, tokens.piiStaff, tokens.contactStaff]) {
      expect(await ids('555 222', token)).toEqual([josefina.id, jose.id])
      expect(await ids('jose.nunez@example.org', token)).toEqual([jose.id])
    }
  })

  test('digits among name words are a phone search too: no confirming a number through a name search', async () => {
    // Name words and phone digits share one index, so "josé 5552220001" would tell whether José has that number.
    for (const query of ['jose 5552220001', 'jose 555', 'nunez 1555222', 'jos 5', 'ana 12']) {
      expectProblem(await search(query, tokens.staff), 403, 'Forbidden')
      expectProblem(await search(query, tokens.agentA), 403, 'Forbidden')
    }
    expect(await ids('jose 5552220001', tokens.contactStaff)).toEqual([jose.id])
    expect(await ids('jose 5559990000', tokens.contactStaff)).toEqual([])
    // Words that merely hold a digit are names.
    expect(await ids('jose 3rd', tokens.staff)).toEqual([])
  })

  test('caseworker roles and intake volunteers may search; a plain volunteer may not (403)', async () => {
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdminA, tokens.agentA, tokens.intakeVolunteerA]) {
      expect(await ids('jos', token)).toEqual([joskowitz.id, josefina.id, jose.id])
    }
    expectProblem(await search('jos', tokens.volunteerA), 403, 'Forbidden')
  })

  test("another organization's constituents never show, by name, phone or email; and it sees only its own", async () => {
    for (const query of ['jos', '+15552220001', 'jose.nunez@example.org', '']) {
      expect(await ids(query)).not.toContain(theirJose.id)
    }
    expect(await ids('jos', tokens.otherAdmin)).toEqual([theirJose.id])
    expect(await ids('+15552220002', tokens.otherAdmin)).toEqual([])
    expect(await ids('bob smith', tokens.otherAdmin)).toEqual([])
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', '/api/constituents?query=jos'), 401, 'Unauthorized')
  })
})

describe('GET /api/constituents/{id}', () => {
  const read = (id: string, token = tokens.admin) => api.call<Constituent>('GET', `/api/constituents/${id}`, { token })

  test('answers the constituent, each field shown or left out by the role exactly as in search results', async () => {
    const person = await register(fullPerson())
    expect((await read(person.id)).body).toEqual(person)
    const expected: Array<[string, readonly string[]]> = [
      [tokens.admin, ALL_FIELDS],
      [tokens.piiStaff, ALL_FIELDS],
      [tokens.partnerAdminA, ALL_FIELDS],
      [tokens.contactStaff, NAMES_PHONE_EMAIL],
      [tokens.staff, NAMES],
      [tokens.agentA, NAMES],
      [tokens.intakeVolunteerA, NAMES],
    ]
    for (const [token, fields] of expected) {
      const response = await read(person.id, token)
      expect(response.status).toBe(200)
      expect(Object.keys(response.body).sort()).toEqual(['id', 'householdId', ...fields].sort())
      const [searched] = (await search(person.lastName!, token)).body
      expect(response.body).toEqual(searched!)
    }
  })

  test('a plain volunteer may not read constituents (403)', async () => {
    const person = await register({ firstName: 'Vee', lastName: uniqueName() })
    expectProblem(await read(person.id, tokens.volunteerA), 403, 'Forbidden')
  })

  test("another organization's constituent is 404, exactly as an unknown id; a malformed id is a 400", async () => {
    const person = await register({ firstName: 'Oz', lastName: uniqueName() })
    expectProblem(await read(person.id, tokens.otherAdmin), 404, 'Not found')
    expectProblem(await read(UNKNOWN_ID), 404, 'Not found')
    expectBadRequest(await read('not-a-uuid'), 'id')
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', `/api/constituents/${UNKNOWN_ID}`), 401, 'Unauthorized')
  })
})

describe('PUT /api/constituents/{id}', () => {
  const put = (id: string, body: unknown, token = tokens.admin) => api.call<Constituent>('PUT', `/api/constituents/${id}`, { token, body })

  test('changes the given fields, keeps the others, and answers the whole constituent', async () => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, { addressCity: 'Troy', addressZip: '12180', email: 'ADA@Example.org' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ ...created, addressCity: 'Troy', addressZip: '12180', email: 'ADA@Example.org' })
    expect(await readBack(created.id, person.lastName)).toEqual(response.body)
  })

  test('null clears a field; the field is then omitted, not null', async () => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, { phone: null, addressZip: null, dateOfBirth: null, firstName: null })
    expect(response.status).toBe(200)
    const { phone: _p, addressZip: _z, dateOfBirth: _d, firstName: _f, ...kept } = created
    expect(response.body).toEqual(kept)
    expect(Object.values(response.body)).not.toContain(null)
    expect(await readBack(created.id, person.lastName)).toEqual(kept)
    expect((await search(person.phone)).body).toEqual([])
  })

  test('an empty body changes nothing', async () => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, {})
    expect(response.status).toBe(200)
    expect(response.body).toEqual(created)
  })

  test('search follows the change: new names and phone are found, old ones no longer', async () => {
    const lastName = uniqueName()
    const newLastName = uniqueName()
    const phone = uniquePhone()
    const newPhone = uniquePhone()
    const created = await register({ firstName: 'Adalind', lastName, phone })
    const updated = await put(created.id, { firstName: 'Augusta', lastName: newLastName, phone: newPhone })
    expect(updated.status).toBe(200)
    expect((await search(`augusta ${newLastName}`)).body.map((c) => c.id)).toEqual([created.id])
    expect((await search(newPhone)).body.map((c) => c.id)).toEqual([created.id])
    expect((await search(lastName)).body).toEqual([])
    expect((await search(`adalind ${newLastName}`)).body).toEqual([])
    expect((await search(phone)).body).toEqual([])
  })

  test.each(INVALID_FIELDS)('%s is a 400 naming the field, and nothing changes', async (_label, body, field) => {
    const person = fullPerson()
    const created = await register(person)
    const response = await put(created.id, { addressCity: 'Troy', ...body })
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
    expect(await readBack(created.id, person.lastName)).toEqual(created)
  })

  test('an id in the body or a householdId (a household is changed by merging) is a 400', async () => {
    const created = await register({ lastName: uniqueName() })
    expectBadRequest(await put(created.id, { id: created.id }), '/id')
    expectBadRequest(await put(created.id, { householdId: created.householdId }), '/householdId')
  })

  test('a malformed id is a 400; an unknown id is 404 Constituent not found', async () => {
    expectBadRequest(await put('not-a-uuid', { firstName: 'x' }), 'id')
    expectProblem(await put(UNKNOWN_ID, { firstName: 'x' }), 404, 'Not found')
  })

  test("another organization's constituent is 404, exactly as an unknown id, and stays unchanged", async () => {
    const lastName = uniqueName()
    const theirs = await register({ firstName: 'Theirs', lastName, phone: uniquePhone() }, tokens.otherAdmin)
    const response = await put(theirs.id, { firstName: 'Stolen', phone: null })
    expectProblem(response, 404, 'Not found')
    expect(response.body).toEqual((await put(UNKNOWN_ID, { firstName: 'Stolen', phone: null })).body)
    expect((await search(lastName, tokens.otherAdmin)).body).toEqual([theirs])
  })

  test('caseworker roles and intake volunteers may update; a plain volunteer may not (403)', async () => {
    const person = fullPerson()
    const created = await register(person)
    for (const [token, city] of [
      [tokens.staff, 'Troy'],
      [tokens.partnerAdminA, 'Utica'],
      [tokens.agentA, 'Ithaca'],
      [tokens.intakeVolunteerA, 'Rome'],
    ] as const) {
      expect((await put(created.id, { addressCity: city }, token)).status).toBe(200)
      expect((await readBack(created.id, person.lastName))?.addressCity).toBe(city)
    }
    expectProblem(await put(created.id, { addressCity: 'Nowhere' }, tokens.volunteerA), 403, 'Forbidden')
    expect((await readBack(created.id, person.lastName))?.addressCity).toBe('Rome')
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    const created = await register({ lastName: uniqueName() })
    expectProblem(await api.call('PUT', `/api/constituents/${created.id}`, { body: { firstName: 'x' } }), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', `/api/constituents/${created.id}`, { body: { phone: 'bad' } }), 401, 'Unauthorized')
  })
})

describe('GET /api/constituents/{id}/needs', () => {
  let person: Required<ConstituentFields>
  let constituent: Constituent
  let ofA: Need
  let ofB: Need
  let confidential: Need
  let someoneElses: Need

  beforeAll(async () => {
    person = fullPerson()
    constituent = await register(person)
    const contact = { firstName: person.firstName, phone: person.phone, addressZip: person.addressZip }
    world.clock.advance(60_000)
    ofA = await createNeed({ partnerId: partnerA.id, constituentId: constituent.id, customFields: { program: 'a', ...contact } })
    world.clock.advance(1000)
    ofB = await createNeed({ partnerId: partnerB.id, constituentId: constituent.id, customFields: { program: 'b' } })
    world.clock.advance(1000)
    confidential = await createNeed({ constituentId: constituent.id, isConfidential: true, customFields: { story: 'private' } })
    someoneElses = await createNeed({ partnerId: partnerA.id, customFields: { firstName: 'Other', lastName: uniqueName() } })
  })

  const listed = async (token: string) => {
    const response = await constituentNeeds(constituent.id, token)
    expect(response.status).toBe(200)
    return Object.fromEntries(response.body.map((n) => [n.id, n]))
  }

  test('lists every need of the constituent, newest first, as GET /api/needs/{id} shows them, with paging headers', async () => {
    const response = await constituentNeeds(constituent.id)
    expect(response.status).toBe(200)
    expect(response.body.map((n) => n.id)).toEqual([confidential.id, ofB.id, ofA.id])
    expect(response.body.map((n) => n.id)).not.toContain(someoneElses.id)
    for (const need of response.body) {
      expect(need).toEqual((await api.call('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body)
      expect(need).toMatchObject({ constituentId: constituent.id, householdId: constituent.householdId })
    }
    expect(response.body[2]!.customFields).toEqual({ program: 'a', firstName: 'Ada', phone: person.phone, addressZip: person.addressZip })
    expect(response.headers.get('x-total-count')).toBe('3')

    const page1 = await constituentNeeds(constituent.id, tokens.admin, '?limit=2')
    const page2 = await constituentNeeds(constituent.id, tokens.admin, '?limit=2&page=2')
    expect([...page1.body, ...page2.body].map((n) => n.id)).toEqual([confidential.id, ofB.id, ofA.id])
    expect(pageOfLink(linksOf(page1).next)).toEqual({ page: 2, limit: 2 })
    expect(new URL(linksOf(page1).next!, 'http://x').pathname).toBe(`/api/constituents/${constituent.id}/needs`)
  })

  test("to a partner_agent, other partners' needs come back with customFields {}; its own partner's keep theirs (contact keys redacted)", async () => {
    const needs = await listed(tokens.agentA)
    expect(Object.keys(needs).sort()).toEqual([ofA.id, ofB.id, confidential.id].sort())
    expect(needs[ofB.id]).toEqual({ ...ofB, customFields: {} })
    expect(needs[confidential.id]!.customFields).toEqual({})
    expect(needs[ofA.id]!.customFields).toEqual({ program: 'a', firstName: 'Ada' })
    // The agent still cannot open the other partner's need itself.
    expectProblem(await api.call('GET', `/api/needs/${ofB.id}`, { token: tokens.agentA }), 404, 'Not found')
  })

  test("a partner_admin sees its own partner's needs whole and the others' emptied", async () => {
    const needs = await listed(tokens.partnerAdminA)
    expect(needs[ofA.id]!.customFields).toEqual(ofA.customFields)
    expect(needs[ofB.id]!.customFields).toEqual({})
    expect(needs[confidential.id]!.customFields).toEqual({})
  })

  test('an intake volunteer of partner A sees the same as the agent', async () => {
    const needs = await listed(tokens.intakeVolunteerA)
    expect(needs[ofA.id]!.customFields).toEqual({ program: 'a', firstName: 'Ada' })
    expect(needs[ofB.id]!.customFields).toEqual({})
  })

  test("staff see every partner's needs; confidential fields and contact keys follow the caller's permissions", async () => {
    const asStaff = await listed(tokens.staff)
    expect(asStaff[ofA.id]!.customFields).toEqual({ program: 'a', firstName: 'Ada' })
    expect(asStaff[ofB.id]!.customFields).toEqual({ program: 'b' })
    expect(asStaff[confidential.id]!.customFields).toEqual({})
    const asPiiReader = await listed(tokens.piiStaff)
    expect(asPiiReader[ofA.id]!.customFields).toEqual(ofA.customFields)
    expect(asPiiReader[confidential.id]!.customFields).toEqual({ story: 'private' })
    const asCommunicator = await listed(tokens.contactStaff)
    expect(asCommunicator[ofA.id]!.customFields).toEqual({ program: 'a', firstName: 'Ada', phone: person.phone })
    expect(asCommunicator[confidential.id]!.customFields).toEqual({})
  })

  test('a constituent without needs has an empty list', async () => {
    const lonely = await register({ lastName: uniqueName() })
    const response = await constituentNeeds(lonely.id)
    expect(response.status).toBe(200)
    expect(response.body).toEqual([])
    expect(response.headers.get('x-total-count')).toBe('0')
  })

  test('a plain volunteer may not list them (403)', async () => {
    expectProblem(await constituentNeeds(constituent.id, tokens.volunteerA), 403, 'Forbidden')
  })

  test('a malformed id or page is a 400; an unknown id is 404 Constituent not found', async () => {
    expectBadRequest(await constituentNeeds('nope'), 'id')
    expectBadRequest(await constituentNeeds(constituent.id, tokens.admin, '?page=0'))
    expectBadRequest(await constituentNeeds(constituent.id, tokens.admin, '?limit=x'), 'query/limit')
    expectBadRequest(await constituentNeeds(constituent.id, tokens.admin, '?status=NEW'))
    expectProblem(await constituentNeeds(UNKNOWN_ID), 404, 'Not found')
  })

  test("another organization's constituent is 404, and its needs never show", async () => {
    const theirs = await register({ firstName: 'Theirs', lastName: uniqueName() }, tokens.otherAdmin)
    const theirNeed = await createNeed(
      { partnerId: other.defaultPartner.id, constituentId: theirs.id, customFields: { secret: 'x' } },
      tokens.otherAdmin,
    )
    const response = await constituentNeeds(theirs.id)
    expectProblem(response, 404, 'Not found')
    expect(JSON.stringify(response.body)).not.toContain(theirNeed.id)
    expect(response.body).toEqual((await constituentNeeds(UNKNOWN_ID)).body)
    expectProblem(await constituentNeeds(constituent.id, tokens.otherAdmin), 404, 'Not found')
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', `/api/constituents/${constituent.id}/needs`), 401, 'Unauthorized')
  })
})

describe('POST /api/constituents/merge', () => {
  const merge = (body: unknown, token = tokens.admin) => api.call<Constituent>('POST', '/api/constituents/merge', { token, body })

  test("moves the source's needs to the target and its household, applies fieldOverrides (null clears), removes the source; answers 200 with the target", async () => {
    const sourcePerson = { firstName: 'Sam', lastName: uniqueName(), phone: uniquePhone(), email: 'sam@example.org' }
    const targetPerson = { firstName: 'Samuel', lastName: uniqueName(), phone: uniquePhone(), addressCity: 'Albany', addressState: 'NY' }
    const source = await register(sourcePerson)
    const target = await register(targetPerson)
    const sourceNeed1 = await createNeed({ constituentId: source.id, customFields: { program: 'one' } })
    const sourceNeed2 = await createNeed({ partnerId: partnerB.id, constituentId: source.id })
    const targetNeed = await createNeed({ constituentId: target.id })
    const note = await api.call('POST', `/api/needs/${sourceNeed1.id}/notes`, { token: tokens.admin, body: { content: 'called back' } })
    expect(note.status).toBe(201)

    const response = await merge({
      sourceConstituentId: source.id,
      targetConstituentId: target.id,
      fieldOverrides: { firstName: 'Samuel J.', email: 'sam@example.org', phone: null, addressState: 'NJ' },
    })
    expect(response.status).toBe(200)
    const expected = {
      id: target.id,
      householdId: target.householdId,
      firstName: 'Samuel J.',
      lastName: targetPerson.lastName,
      email: 'sam@example.org',
      addressCity: 'Albany',
      addressState: 'NJ',
    }
    expect(response.body).toEqual(expected)
    expect(await readBack(target.id, targetPerson.lastName)).toEqual(expected)

    const needs = (await constituentNeeds(target.id)).body
    expect(needs.map((n) => n.id).sort()).toEqual([sourceNeed1.id, sourceNeed2.id, targetNeed.id].sort())
    for (const need of needs) expect(need).toMatchObject({ constituentId: target.id, householdId: target.householdId })
    expect((await api.call<Need[]>('GET', `/api/needs?constituentId=${source.id}`, { token: tokens.admin })).body).toEqual([])
    // The interactions travel with their need.
    const interactions = await api.call<Array<{ content: string }>>('GET', `/api/needs/${sourceNeed1.id}/interactions`, {
      token: tokens.admin,
    })
    expect(interactions.body.map((i) => i.content)).toEqual(['called back'])

    // The source is gone.
    expect(await readBack(source.id, sourcePerson.lastName)).toBeUndefined()
    expect((await search(sourcePerson.phone)).body).toEqual([])
    expectProblem(await constituentNeeds(source.id), 404, 'Not found')
    expectProblem(
      await api.call('PUT', `/api/constituents/${source.id}`, { token: tokens.admin, body: { firstName: 'x' } }),
      404,
      'Not found',
    )
    expectProblem(await merge({ sourceConstituentId: source.id, targetConstituentId: target.id }), 404, 'Not found')
  })

  test('without fieldOverrides the target keeps exactly its own fields', async () => {
    const target = await register(fullPerson())
    const source = await register({ ...fullPerson(), firstName: 'Other' })
    const response = await merge({ sourceConstituentId: source.id, targetConstituentId: target.id })
    expect(response.status).toBe(200)
    expect(response.body).toEqual(target)
  })

  test("with mergeHouseholds the other members of the source's household join the target's, with their needs; without it they stay", async () => {
    for (const mergeHouseholds of [true, false]) {
      const target = await register({ firstName: 'Target', lastName: uniqueName() })
      const source = await register({ firstName: 'Source', lastName: uniqueName() })
      const relativeName = uniqueName()
      const relative = await register({ firstName: 'Relative', lastName: relativeName, householdId: source.householdId })
      const relativeNeed = await createNeed({ constituentId: relative.id })
      const sourceNeed = await createNeed({ constituentId: source.id })

      const response = await merge({ sourceConstituentId: source.id, targetConstituentId: target.id, mergeHouseholds })
      expect(response.status).toBe(200)
      expect(response.body.householdId).toBe(target.householdId)

      const household = mergeHouseholds ? target.householdId : source.householdId
      expect((await readBack(relative.id, relativeName))?.householdId).toBe(household)
      expect((await api.call<Need>('GET', `/api/needs/${relativeNeed.id}`, { token: tokens.admin })).body).toMatchObject({
        constituentId: relative.id,
        householdId: household,
      })
      expect((await api.call<Need>('GET', `/api/needs/${sourceNeed.id}`, { token: tokens.admin })).body).toMatchObject({
        constituentId: target.id,
        householdId: target.householdId,
      })
    }
  })

  test('source equal to target is a 400, and the constituent stays', async () => {
    const person = fullPerson()
    const one = await register(person)
    expectBadRequest(await merge({ sourceConstituentId: one.id, targetConstituentId: one.id }), 'ConstituentId')
    expect(await readBack(one.id, person.lastName)).toEqual(one)
  })

  test.each([
    ['no sourceConstituentId', { sourceConstituentId: undefined }, '/sourceConstituentId'],
    ['no targetConstituentId', { targetConstituentId: undefined }, '/targetConstituentId'],
    ['a malformed sourceConstituentId', { sourceConstituentId: 'abc' }, '/sourceConstituentId'],
    ['a malformed targetConstituentId', { targetConstituentId: 42 }, '/targetConstituentId'],
    ['mergeHouseholds as a string', { mergeHouseholds: 'yes' }, '/mergeHouseholds'],
    ['an unknown property', { keep: 'source' }, '/keep'],
    ['fieldOverrides that is not an object', { fieldOverrides: 'all' }, '/fieldOverrides'],
    ['an unknown key in fieldOverrides', { fieldOverrides: { nickname: 'Sam' } }, '/fieldOverrides/nickname'],
    ['a fieldOverrides phone not E.164', { fieldOverrides: { phone: '555-1234' } }, '/fieldOverrides/phone'],
    ["a fieldOverrides addressState 'ZZ'", { fieldOverrides: { addressState: 'ZZ' } }, '/fieldOverrides/addressState'],
    ["a fieldOverrides addressZip '1234'", { fieldOverrides: { addressZip: '1234' } }, '/fieldOverrides/addressZip'],
    ["a fieldOverrides dateOfBirth '2023-02-29'", { fieldOverrides: { dateOfBirth: '2023-02-29' } }, '/fieldOverrides/dateOfBirth'],
    ["a fieldOverrides dateOfBirth '2023-13-01'", { fieldOverrides: { dateOfBirth: '2023-13-01' } }, '/fieldOverrides/dateOfBirth'],
    ['a bad fieldOverrides email', { fieldOverrides: { email: 'sam at home' } }, '/fieldOverrides/email'],
    [
      'a null fieldOverrides firstName (names can be set, not cleared)',
      { fieldOverrides: { firstName: null } },
      '/fieldOverrides/firstName',
    ],
    ['a fieldOverrides lastName as a number', { fieldOverrides: { lastName: 7 } }, '/fieldOverrides/lastName'],
  ])('%s is a 400 naming it, and nothing is merged', async (_label, change, field) => {
    const sourcePerson = fullPerson()
    const source = await register(sourcePerson)
    const target = await register(fullPerson())
    const body: Record<string, unknown> = { sourceConstituentId: source.id, targetConstituentId: target.id, ...change }
    for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key]
    const response = await merge(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field)
    expect(await readBack(source.id, sourcePerson.lastName)).toEqual(source)
  })

  test("an unknown id, or another organization's, is 404 Constituent not found, and nothing changes on either side", async () => {
    const minePerson = fullPerson()
    const mine = await register(minePerson)
    const mineNeed = await createNeed({ constituentId: mine.id })
    const theirName = uniqueName()
    const theirs = await register({ firstName: 'Theirs', lastName: theirName, phone: uniquePhone() }, tokens.otherAdmin)
    const theirNeed = await createNeed({ partnerId: other.defaultPartner.id, constituentId: theirs.id }, tokens.otherAdmin)
    const cases = [
      { sourceConstituentId: UNKNOWN_ID, targetConstituentId: mine.id },
      { sourceConstituentId: mine.id, targetConstituentId: UNKNOWN_ID },
      { sourceConstituentId: theirs.id, targetConstituentId: mine.id },
      { sourceConstituentId: mine.id, targetConstituentId: theirs.id, mergeHouseholds: true },
    ]
    for (const body of cases) {
      const response = await merge(body)
      expectProblem(response, 404, 'Not found')
      expect(JSON.stringify(response.body)).not.toContain(theirName)
    }
    expect(await readBack(mine.id, minePerson.lastName)).toEqual(mine)
    expect((await api.call<Need>('GET', `/api/needs/${mineNeed.id}`, { token: tokens.admin })).body.constituentId).toBe(mine.id)
    expect((await search(theirName, tokens.otherAdmin)).body).toEqual([theirs])
    expect((await api.call<Need>('GET', `/api/needs/${theirNeed.id}`, { token: tokens.otherAdmin })).body.constituentId).toBe(theirs.id)
  })

  test('only org_admin or the duplicate_resolver profile may merge (403 for the rest); the answer is redacted for the caller', async () => {
    const sourcePerson = fullPerson()
    const source = await register(sourcePerson)
    const target = await register(fullPerson())
    for (const token of [tokens.staff, tokens.piiStaff, tokens.partnerAdminA, tokens.agentA, tokens.intakeVolunteerA, tokens.volunteerA]) {
      expectProblem(await merge({ sourceConstituentId: source.id, targetConstituentId: target.id }, token), 403, 'Forbidden')
    }
    expect(await readBack(source.id, sourcePerson.lastName)).toEqual(source)

    const response = await merge({ sourceConstituentId: source.id, targetConstituentId: target.id }, tokens.resolverStaff)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: target.id,
      householdId: target.householdId,
      firstName: target.firstName,
      lastName: target.lastName,
    })
    expect(await readBack(source.id, sourcePerson.lastName)).toBeUndefined()
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    expectProblem(
      await api.call('POST', '/api/constituents/merge', { body: { sourceConstituentId: UNKNOWN_ID, targetConstituentId: UNKNOWN_ID } }),
      401,
      'Unauthorized',
    )
    expectProblem(await api.call('POST', '/api/constituents/merge', { body: { nonsense: true } }), 401, 'Unauthorized')
  })
})

describe('redaction of phone, email, address and date of birth (docs/api.md "Permissions")', () => {
  let person: Required<ConstituentFields>
  let constituent: Constituent
  let need: Need

  beforeAll(async () => {
    person = fullPerson()
    constituent = await register(person)
    need = await createNeed({ partnerId: partnerA.id, constituentId: constituent.id, customFields: { ...person, program: 'winter' } })
  })

  /** Who sees which of the nine fields; names are never hidden. */
  const VIEWERS: Array<[label: string, token: () => string, visible: readonly string[]]> = [
    ['org_admin', () => tokens.admin, ALL_FIELDS],
    ['partner_admin', () => tokens.partnerAdminA, ALL_FIELDS],
    ['staff with pii_reader', () => tokens.piiStaff, ALL_FIELDS],
    ['staff with email_phone_communicator', () => tokens.contactStaff, NAMES_PHONE_EMAIL],
    ['staff', () => tokens.staff, NAMES],
    ['partner_agent', () => tokens.agentA, NAMES],
    ['volunteer with intake_staff', () => tokens.intakeVolunteerA, NAMES],
  ]
  const sorted = (keys: readonly string[]) => [...keys].sort()

  test.each(VIEWERS)('%s: on search, the PUT and POST answers', async (_label, token, visible) => {
    const found = await search(person.lastName, token())
    expect(found.body).toHaveLength(1)
    expect(sorted(Object.keys(found.body[0]!))).toEqual(sorted(['id', 'householdId', ...visible]))
    expect(found.body[0]).toMatchObject(Object.fromEntries(visible.map((f) => [f, person[f as keyof typeof person]])))

    const updated = await api.call<Constituent>('PUT', `/api/constituents/${constituent.id}`, {
      token: token(),
      body: { addressCity: person.addressCity },
    })
    expect(updated.status).toBe(200)
    expect(sorted(Object.keys(updated.body))).toEqual(sorted(['id', 'householdId', ...visible]))

    const created = await register({ ...fullPerson(), firstName: 'Registered' }, token())
    expect(sorted(Object.keys(created))).toEqual(sorted(['id', 'householdId', ...visible]))
  })

  test.each(VIEWERS)("%s: on the same keys inside needs' customFields, wherever a need is answered", async (_label, token, visible) => {
    const expected = sorted(['program', ...visible])
    const read = await api.call<Need>('GET', `/api/needs/${need.id}`, { token: token() })
    expect(sorted(Object.keys(read.body.customFields))).toEqual(expected)
    const listed = await api.call<Need[]>('GET', `/api/needs?constituentId=${constituent.id}`, { token: token() })
    expect(sorted(Object.keys(listed.body.find((n) => n.id === need.id)!.customFields))).toEqual(expected)
    const ofConstituent = await constituentNeeds(constituent.id, token())
    expect(sorted(Object.keys(ofConstituent.body.find((n) => n.id === need.id)!.customFields))).toEqual(expected)
    const created = await createNeed(
      { partnerId: partnerA.id, constituentId: constituent.id, customFields: { ...person, program: 'spring' } },
      token(),
    )
    expect(sorted(Object.keys(created.customFields))).toEqual(expected)
    for (const field of visible) expect(read.body.customFields[field]).toBe(person[field as keyof typeof person])
  })

  test('a caller who cannot read a field keeps it by updating the others', async () => {
    const updated = await api.call<Constituent>('PUT', `/api/constituents/${constituent.id}`, {
      token: tokens.staff,
      body: { firstName: 'Augusta' },
    })
    expect(updated.body).toEqual({
      id: constituent.id,
      householdId: constituent.householdId,
      firstName: 'Augusta',
      lastName: person.lastName,
    })
    expect(await readBack(constituent.id, person.lastName)).toEqual({ ...constituent, firstName: 'Augusta' })
    await api.call('PUT', `/api/constituents/${constituent.id}`, { token: tokens.admin, body: { firstName: person.firstName } })
  })

  test('a need update by a caller who cannot see contact keys keeps them: what it never saw is not deleted', async () => {
    const fields = { ...fullPerson(), program: 'winter' }
    const kept = await createNeed({ partnerId: partnerA.id, constituentId: constituent.id, customFields: fields })
    const asStaff = await api.call<Need>('PUT', `/api/needs/${kept.id}`, {
      token: tokens.staff,
      body: { customFields: { firstName: 'Ada', program: 'spring' } },
    })
    expect(asStaff.status).toBe(200)
    expect(asStaff.body.customFields).toEqual({ firstName: 'Ada', program: 'spring' })
    const { lastName: _removed, ...afterStaff } = { ...fields, program: 'spring' }
    expect((await api.call<Need>('GET', `/api/needs/${kept.id}`, { token: tokens.admin })).body.customFields).toEqual(afterStaff)

    // A communicator sees phone and email: those it leaves out are removed, the address and birth date stay.
    const newPhone = uniquePhone()
    const asCommunicator = await api.call<Need>('PUT', `/api/needs/${kept.id}`, {
      token: tokens.contactStaff,
      body: { customFields: { firstName: 'Ada', phone: newPhone } },
    })
    expect(asCommunicator.body.customFields).toEqual({ firstName: 'Ada', phone: newPhone })
    const { email: _e, phone: _p, program: _g, ...hidden } = afterStaff
    expect((await api.call<Need>('GET', `/api/needs/${kept.id}`, { token: tokens.admin })).body.customFields).toEqual({
      ...hidden,
      phone: newPhone,
    })
  })

  test('a need update answer is redacted the same way', async () => {
    const response = await api.call<Need>('PUT', `/api/needs/${need.id}`, { token: tokens.staff, body: { status: 'IN_PROGRESS' } })
    expect(response.status).toBe(200)
    expect(sorted(Object.keys(response.body.customFields))).toEqual(sorted(['program', ...NAMES]))
    expect((await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body.customFields).toEqual({
      ...person,
      program: 'winter',
    })
  })
})
