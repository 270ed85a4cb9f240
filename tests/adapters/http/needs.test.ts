import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { claimsOf, expectBadRequest, expectProblem, ISO_MS, linksOf, pageOfLink, seedConstituent, UNKNOWN_ID } from './helpers'

// docs/api.md "Errors", docs/api.md "Needs", docs/api.md "Permissions", over real HTTP.
type Need = Record<string, any> & { id: string; referenceNumber: string; partnerId: string; createdAt: string; updatedAt: string }

let api: TestServer
let world: World
let other: World
let partnerA: Partner
let partnerB: Partner
let archived: Partner
const tokens: Record<string, string> = {}
const ids: Record<string, string> = {}

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  other = await world.otherOrganization()
  partnerA = await world.partner({ name: 'Pantry A', slaHours: 24 })
  partnerB = await world.partner({ name: 'Pantry B', slaHours: 72 })
  archived = await world.partner({ name: 'Closed', isArchived: true })
  const [admin, staff, agentA, partnerAdminA, volunteerA, intakeVolunteerA, processorVolunteerA, piiStaff, otherAdmin] = await Promise.all([
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

async function createNeed(body: Record<string, unknown> = {}, token = tokens.admin!): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect(response.status).toBe(201)
  return response.body
}

/** A need of the other organization, made by its admin. */
const createOtherNeed = () => createNeed({ partnerId: other.defaultPartner.id }, tokens.otherAdmin)

function hasNoNulls(value: unknown): boolean {
  if (value === null) return false
  if (Array.isArray(value)) return value.every(hasNoNulls)
  if (typeof value === 'object') return Object.values(value as object).every(hasNoNulls)
  return true
}

describe('POST /api/needs', () => {
  test('answers 201 with the need: NEW by default, reference number, due date from the SLA, absent fields omitted', async () => {
    const response = await api.call<Need>('POST', '/api/needs', { token: tokens.admin, body: { partnerId: partnerA.id } })

    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    const need = response.body
    expect(Object.keys(need).sort()).toEqual(
      [
        'createdAt',
        'createdBy',
        'customFields',
        'dueDate',
        'dueDateSetByHand',
        'id',
        'isConfidential',
        'organizationId',
        'partnerId',
        'referenceNumber',
        'status',
        'updatedAt',
      ].sort(),
    )
    expect(need).toMatchObject({
      organizationId: world.organizationId,
      partnerId: partnerA.id,
      status: 'NEW',
      customFields: {},
      isConfidential: false,
    })
    // A need is an event: its id is a UUID v7, time-ordered (docs/api.md "Identifiers").
    expect(need.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(need.referenceNumber).toMatch(/^REQ-\d+$/)
    for (const field of ['createdAt', 'updatedAt', 'dueDate']) expect(need[field]).toMatch(ISO_MS)
    expect(Date.parse(need.dueDate) - Date.parse(need.createdAt)).toBe(24 * 3_600_000)
    expect(hasNoNulls(need)).toBe(true)
  })

  test('reference numbers follow one sequence per organization, from 1001', async () => {
    // An organization of its own: other tests create needs too, in any order.
    const fresh = await api.world.otherOrganization()
    const token = await api.tokenFor(fresh, 'org_admin')
    const first = await createNeed({ partnerId: fresh.defaultPartner.id }, token)
    const second = await createNeed({ partnerId: fresh.defaultPartner.id }, token)
    expect(first.referenceNumber).toBe('REQ-1001')
    expect(second.referenceNumber).toBe('REQ-1002')
  })

  test('keeps every optional field it is given; the household follows the constituent', async () => {
    const parent = await createNeed()
    const { constituentId, householdId } = await seedConstituent(api, tokens.admin!)
    const need = await createNeed({
      partnerId: partnerB.id,
      status: 'IN_PROGRESS',
      customFields: { program: 'winter', phone: '+15551234567', visits: 3 },
      isConfidential: true,
      parentNeedId: parent.id,
      assignedTo: ids.assignee,
      constituentId,
    })
    expect(need).toMatchObject({
      partnerId: partnerB.id,
      status: 'IN_PROGRESS',
      customFields: { program: 'winter', phone: '+15551234567', visits: 3 },
      isConfidential: true,
      parentNeedId: parent.id,
      assignedTo: ids.assignee,
      constituentId,
      householdId,
    })
    const read = await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })
    expect(read.body).toEqual(need)
  })

  test('contact keys without a constituentId become a constituent in a new household; the keys stay in customFields', async () => {
    const customFields = { firstName: 'Mary', lastName: 'Shelley', phone: '+15557770001', program: 'winter' }
    const need = await createNeed({ customFields })
    expect(need.constituentId).toBeString()
    expect(need.householdId).toBeString()
    expect(need).not.toHaveProperty('duplicateWarning')
    expect(need.customFields).toEqual(customFields)

    const found = await api.call('GET', '/api/constituents?query=%2B15557770001', { token: tokens.admin })
    expect(found.body).toEqual([
      { id: need.constituentId, householdId: need.householdId, firstName: 'Mary', lastName: 'Shelley', phone: '+15557770001' },
    ])

    // With the constituent named, no one new is registered, whatever the contact keys say.
    const again = await createNeed({ constituentId: need.constituentId, customFields: { firstName: 'Mary', phone: '+15557770001' } })
    expect(again).toMatchObject({ constituentId: need.constituentId, householdId: need.householdId })
    expect(again).not.toHaveProperty('duplicateWarning')
    expect((await api.call('GET', '/api/constituents?query=%2B15557770001', { token: tokens.admin })).headers.get('x-total-count')).toBe(
      '1',
    )

    // With only a household named, the new constituent joins it.
    const relative = await createNeed({ householdId: need.householdId, customFields: { firstName: 'Percy', lastName: 'Shelley' } })
    expect(relative.householdId).toBe(need.householdId!)
    expect(relative.constituentId).not.toBe(need.constituentId)
    const percy = await api.call('GET', '/api/constituents?query=percy%20shelley', { token: tokens.admin })
    expect(percy.body).toEqual([{ id: relative.constituentId, householdId: need.householdId, firstName: 'Percy', lastName: 'Shelley' }])
  })

  test('customFields without contact keys register no one', async () => {
    const need = await createNeed({ customFields: { program: 'winter', visits: 2 } })
    for (const absent of ['constituentId', 'householdId', 'duplicateWarning']) expect(need).not.toHaveProperty(absent)
  })

  test.each([
    ['a wrong type', { isConfidential: 'yes' }, '/isConfidential'],
    ['an unknown status', { status: 'DONE' }, '/status'],
    ['a lower-case status', { status: 'new' }, '/status'],
    ['a malformed partnerId', { partnerId: 'not-a-uuid' }, '/partnerId'],
    ['a malformed assignedTo', { assignedTo: '1234' }, '/assignedTo'],
    ['an unknown property', { priority: 'high' }, '/priority'],
    ['customFields that is not an object', { customFields: ['a'] }, '/customFields'],
    [
      'customFields with more than 50 keys',
      { customFields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
      '/customFields',
    ],
    ['customFields over 16 KiB', { customFields: { notes: 'x'.repeat(17 * 1024) } }, '/customFields'],
    ['a customFields phone that is not E.164', { customFields: { phone: '555-1234' } }, '/customFields/phone'],
    ['a customFields addressState that is not a state', { customFields: { addressState: 'ZZ' } }, '/customFields/addressState'],
    ['a customFields dateOfBirth that is not a date', { customFields: { dateOfBirth: '2023-02-30' } }, '/customFields/dateOfBirth'],
  ])('%s is a 400', async (_label, body, field) => {
    const response = await api.call('POST', '/api/needs', { token: tokens.admin, body: { partnerId: world.defaultPartner.id, ...body } })
    expectBadRequest(response, field)
  })

  test('a missing partnerId, an empty body and malformed JSON are 400s', async () => {
    expectBadRequest(await api.call('POST', '/api/needs', { token: tokens.admin, body: {} }), 'partnerId')
    expectBadRequest(await api.call('POST', '/api/needs', { token: tokens.admin, raw: '' }))
    expectBadRequest(
      await api.call('POST', '/api/needs', { token: tokens.admin, raw: '{"partnerId":', headers: { 'content-type': 'application/json' } }),
    )
  })

  test('references must name records of the caller organization (400), archived partners take no needs', async () => {
    const foreignPartner = other.defaultPartner.id
    const foreignNeed = await createOtherNeed()
    const foreign = await seedConstituent(api, tokens.otherAdmin!)
    const own = await seedConstituent(api, tokens.admin!)
    const another = await seedConstituent(api, tokens.admin!, { firstName: 'Grace', lastName: 'Hopper' })
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ partnerId: UNKNOWN_ID }, '/partnerId'],
      [{ partnerId: foreignPartner }, '/partnerId'],
      [{ partnerId: archived.id }, '/partnerId'],
      [{ assignedTo: ids.otherMember }, '/assignedTo'],
      [{ parentNeedId: foreignNeed.id }, '/parentNeedId'],
      [{ constituentId: foreign.constituentId }, '/constituentId'],
      [{ householdId: foreign.householdId }, '/householdId'],
      [{ constituentId: own.constituentId, householdId: another.householdId }, '/householdId'],
    ]
    for (const [body, field] of cases) {
      const response = await api.call('POST', '/api/needs', { token: tokens.admin, body: { partnerId: world.defaultPartner.id, ...body } })
      expectBadRequest(response, field)
    }
  })

  test("to partner roles, another partner's need as parentNeedId is refused (400) exactly as an unknown one", async () => {
    const theirs = await createNeed({ partnerId: partnerB.id })
    const ours = await createNeed({ partnerId: partnerA.id })
    for (const token of [tokens.agentA!, tokens.partnerAdminA!]) {
      const [other, unknown] = await Promise.all(
        [theirs.id, UNKNOWN_ID].map((parentNeedId) =>
          api.call('POST', '/api/needs', { token, body: { partnerId: partnerA.id, parentNeedId } }),
        ),
      )
      expectBadRequest(other!, '/parentNeedId')
      expect(other!.body).toEqual({ ...unknown!.body, instance: other!.body.instance })
      const linked = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: partnerA.id, parentNeedId: ours.id } })
      expect({ status: linked.status, parentNeedId: linked.body.parentNeedId }).toEqual({ status: 201, parentNeedId: ours.id })
    }
    expect((await createNeed({ parentNeedId: theirs.id }, tokens.staff)).parentNeedId).toBe(theirs.id)
  })

  test('a volunteer may not create needs (403) unless it holds intake_staff', async () => {
    expectProblem(await api.call('POST', '/api/needs', { token: tokens.volunteerA, body: { partnerId: partnerA.id } }), 403, 'Forbidden')
    const allowed = await api.call<Need>('POST', '/api/needs', { token: tokens.intakeVolunteerA, body: { partnerId: partnerA.id } })
    expect(allowed.status).toBe(201)
  })

  test("partner roles create needs for their own partner only (another partner's is 403)", async () => {
    expect((await api.call('POST', '/api/needs', { token: tokens.agentA, body: { partnerId: partnerA.id } })).status).toBe(201)
    expectProblem(await api.call('POST', '/api/needs', { token: tokens.agentA, body: { partnerId: partnerB.id } }), 403, 'Forbidden')
  })

  test('without a token it is a 401, before the body is looked at', async () => {
    expectProblem(await api.call('POST', '/api/needs', { body: { partnerId: world.defaultPartner.id } }), 401, 'Unauthorized')
    expectProblem(await api.call('POST', '/api/needs', { body: { nonsense: true } }), 401, 'Unauthorized')
    expectProblem(await api.call('POST', '/api/needs', { raw: '{oops' }), 401, 'Unauthorized')
  })
})

describe('GET /api/needs', () => {
  let listing: Partner
  const created: Need[] = []

  beforeAll(async () => {
    listing = await world.partner({ name: 'Listing' })
    for (let i = 0; i < 5; i++) {
      world.clock.advance(1000)
      created.push(await createNeed({ partnerId: listing.id, customFields: { n: i } }))
    }
  })

  const list = (query: string, token = tokens.admin) => api.call<Need[]>('GET', `/api/needs${query}`, { token })

  test('answers the plain array, newest first, with X-Total-Count and Link', async () => {
    const response = await list(`?partnerId=${listing.id}`)
    expect(response.status).toBe(200)
    expect(Array.isArray(response.body)).toBe(true)
    expect(response.body.map((n) => n.id)).toEqual(created.map((n) => n.id).reverse())
    expect(response.headers.get('x-total-count')).toBe('5')
    const links = linksOf(response)
    expect(pageOfLink(links.first)).toEqual({ page: 1, limit: 25 })
    expect(pageOfLink(links.last)).toEqual({ page: 1, limit: 25 })
    expect(links.next).toBeUndefined()
    expect(links.prev).toBeUndefined()
  })

  test('list items have the same shape as a read: ISO times with ms, no nulls', async () => {
    const response = await list(`?partnerId=${listing.id}&limit=1`)
    const item = response.body[0]!
    expect(item).toEqual((await api.call('GET', `/api/needs/${item.id}`, { token: tokens.admin })).body)
    for (const field of ['createdAt', 'updatedAt', 'dueDate']) expect(item[field]).toMatch(ISO_MS)
    expect(hasNoNulls(response.body)).toBe(true)
  })

  test('pages with first, prev, next and last links that keep the filters', async () => {
    const page1 = await list(`?partnerId=${listing.id}&limit=2`)
    const page2 = await list(`?partnerId=${listing.id}&limit=2&page=2`)
    const page3 = await list(`?partnerId=${listing.id}&limit=2&page=3`)

    for (const page of [page1, page2, page3]) expect(page.headers.get('x-total-count')).toBe('5')
    expect([...page1.body, ...page2.body, ...page3.body].map((n) => n.id)).toEqual(created.map((n) => n.id).reverse())
    expect(page3.body).toHaveLength(1)

    const l1 = linksOf(page1)
    expect(Object.keys(l1).sort()).toEqual(['first', 'last', 'next'])
    expect(pageOfLink(l1.next)).toEqual({ page: 2, limit: 2 })
    expect(pageOfLink(l1.last)).toEqual({ page: 3, limit: 2 })
    const l2 = linksOf(page2)
    expect(Object.keys(l2).sort()).toEqual(['first', 'last', 'next', 'prev'])
    expect(pageOfLink(l2.prev)).toEqual({ page: 1, limit: 2 })
    expect(pageOfLink(l2.next)).toEqual({ page: 3, limit: 2 })
    const l3 = linksOf(page3)
    expect(Object.keys(l3).sort()).toEqual(['first', 'last', 'prev'])
    expect(pageOfLink(l3.first)).toEqual({ page: 1, limit: 2 })

    // Following a link answers the same page; the filter travels with it.
    expect(new URL(l1.next!, 'http://x').searchParams.get('partnerId')).toBe(listing.id)
    const followed = await api.call<Need[]>('GET', l1.next!, { token: tokens.admin })
    expect(followed.body.map((n) => n.id)).toEqual(page2.body.map((n) => n.id))
  })

  test('a page past the end is an empty array whose prev link points at the last page', async () => {
    const response = await list(`?partnerId=${listing.id}&limit=2&page=9`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual([])
    expect(response.headers.get('x-total-count')).toBe('5')
    expect(pageOfLink(linksOf(response).prev)).toEqual({ page: 3, limit: 2 })
  })

  test('needs created at the same instant are ordered by id, descending, and never repeat across pages', async () => {
    const sameTime = await world.partner({ name: 'Same time' })
    const batch = [
      await createNeed({ partnerId: sameTime.id }),
      await createNeed({ partnerId: sameTime.id }),
      await createNeed({ partnerId: sameTime.id }),
    ]
    const expected = batch
      .map((n) => n.id)
      .sort()
      .reverse()
    const all = await list(`?partnerId=${sameTime.id}`)
    expect(all.body.map((n) => n.id)).toEqual(expected)
    const paged = [
      ...(await list(`?partnerId=${sameTime.id}&limit=1`)).body,
      ...(await list(`?partnerId=${sameTime.id}&limit=1&page=2`)).body,
      ...(await list(`?partnerId=${sameTime.id}&limit=1&page=3`)).body,
    ]
    expect(paged.map((n) => n.id)).toEqual(expected)
  })

  test('filters by one status or a comma list', async () => {
    const statusPartner = await world.partner({ name: 'Statuses' })
    const open = await createNeed({ partnerId: statusPartner.id })
    const working = await createNeed({ partnerId: statusPartner.id, status: 'IN_PROGRESS' })
    const done = await createNeed({ partnerId: statusPartner.id, status: 'RESOLVED' })

    const one = await list(`?partnerId=${statusPartner.id}&status=IN_PROGRESS`)
    expect(one.body.map((n) => n.id)).toEqual([working.id])
    expect(one.headers.get('x-total-count')).toBe('1')
    const two = await list(`?partnerId=${statusPartner.id}&status=NEW,RESOLVED`)
    expect(two.body.map((n) => n.id).sort()).toEqual([open.id, done.id].sort())
    const encoded = await list(`?partnerId=${statusPartner.id}&status=NEW%2CRESOLVED`)
    expect(encoded.body).toHaveLength(2)
    const none = await list(`?partnerId=${statusPartner.id}&status=ESCALATED`)
    expect(none.body).toEqual([])
  })

  test('filters by assignee', async () => {
    const mine = await createNeed({ assignedTo: ids.assignee })
    const response = await list(`?assignedTo=${ids.assignee}`)
    expect(response.body.map((n) => n.id)).toContain(mine.id)
    expect(response.body.every((n) => n.assignedTo === ids.assignee)).toBe(true)
  })

  test.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['status=DONE', 'status'],
    ['status=new', 'status'],
    ['status=NEW,', 'status'],
    ['status=NEW;RESOLVED', 'status'],
    ['partnerId=abc', 'partnerId'],
    ['assignedTo=abc', 'assignedTo'],
    ['constituentId=abc', 'constituentId'],
    ['sort=createdAt', 'sort'],
  ])('?%s is a 400', async (query) => {
    expectBadRequest(await list(`?${query}`))
  })

  test('limit=100 is allowed', async () => {
    const response = await list('?limit=100')
    expect(response.status).toBe(200)
    expect(pageOfLink(linksOf(response).first)).toEqual({ page: 1, limit: 100 })
  })

  test("another organization's needs never show, not even filtered by its partner", async () => {
    const mine = await createNeed()
    await createOtherNeed()
    const response = await list('?limit=100', tokens.otherAdmin)
    expect(response.status).toBe(200)
    expect(response.body.length).toBeGreaterThan(0)
    expect(response.body.every((n) => n.organizationId === other.organizationId)).toBe(true)
    expect(response.body.map((n) => n.id)).not.toContain(mine.id)
    const filtered = await list(`?partnerId=${world.defaultPartner.id}`, tokens.otherAdmin)
    expect(filtered.body).toEqual([])
    expect(filtered.headers.get('x-total-count')).toBe('0')
  })

  test("partner roles see only their partner's needs, whatever the filter", async () => {
    const ofA = await createNeed({ partnerId: partnerA.id })
    const ofB = await createNeed({ partnerId: partnerB.id })
    for (const token of [tokens.agentA, tokens.partnerAdminA, tokens.volunteerA]) {
      const response = await list('?limit=100', token)
      expect(response.status).toBe(200)
      const listed = response.body.map((n) => n.id)
      expect(listed).toContain(ofA.id)
      expect(listed).not.toContain(ofB.id)
      expect(response.body.every((n) => n.partnerId === partnerA.id)).toBe(true)
      expect(Number(response.headers.get('x-total-count'))).toBe(response.body.length)
      const asked = await list(`?partnerId=${partnerB.id}`, token)
      expect(asked.body).toEqual([])
    }
  })

  test('staff see the whole organization', async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    const response = await list(`?partnerId=${partnerB.id}&limit=100`, tokens.staff)
    expect(response.body.map((n) => n.id)).toContain(ofB.id)
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', '/api/needs'), 401, 'Unauthorized')
    expectProblem(await api.call('GET', '/api/needs?page=0'), 401, 'Unauthorized')
  })
})

describe('GET /api/needs/{id}', () => {
  test('reads a need by id and by its reference number, in any case', async () => {
    const need = await createNeed({ customFields: { a: 1 } })
    const byId = await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })
    expect(byId.status).toBe(200)
    expect(byId.body).toEqual(need)
    for (const reference of [need.referenceNumber, need.referenceNumber.toLowerCase(), `Req-${need.referenceNumber.slice(4)}`]) {
      const response = await api.call<Need>('GET', `/api/needs/${reference}`, { token: tokens.admin })
      expect(response.status).toBe(200)
      expect(response.body.id).toBe(need.id)
    }
    const upperId = await api.call<Need>('GET', `/api/needs/${need.id.toUpperCase()}`, { token: tokens.admin })
    expect(upperId.body.id).toBe(need.id)
  })

  test('an unknown id or reference is 404 Need not found', async () => {
    expectProblem(await api.call('GET', `/api/needs/${UNKNOWN_ID}`, { token: tokens.admin }), 404, 'Not found')
    expectProblem(await api.call('GET', '/api/needs/REQ-999999', { token: tokens.admin }), 404, 'Not found')
    expectProblem(await api.call('GET', '/api/needs/nonsense', { token: tokens.admin }), 404, 'Not found')
  })

  test('an over-long id is a 400', async () => {
    expectBadRequest(await api.call('GET', `/api/needs/${'x'.repeat(65)}`, { token: tokens.admin }))
  })

  test("another organization's need is 404 by id and by reference, and a reference names only one's own need", async () => {
    const theirs = await createOtherNeed()
    // This organization's sequence made longer than the other's, whatever ran before: the other's reference
    // number then also names one of this organization's needs.
    let mine = await createNeed()
    while (Number(mine.referenceNumber.slice(4)) <= Number(theirs.referenceNumber.slice(4))) mine = await createNeed()
    expectProblem(await api.call('GET', `/api/needs/${mine.id}`, { token: tokens.otherAdmin }), 404, 'Not found')

    const sameReference = await api.call<Need>('GET', `/api/needs/${theirs.referenceNumber}`, { token: tokens.admin })
    expect(sameReference.status).toBe(200)
    expect(sameReference.body.organizationId).toBe(world.organizationId)
    expect(sameReference.body.id).not.toBe(theirs.id)
    expectProblem(await api.call('GET', `/api/needs/${mine.referenceNumber}`, { token: tokens.otherAdmin }), 404, 'Not found')
  })

  test("another partner's need is 404 to partner roles, by id and by reference", async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    for (const token of [tokens.agentA, tokens.partnerAdminA, tokens.volunteerA]) {
      expectProblem(await api.call('GET', `/api/needs/${ofB.id}`, { token }), 404, 'Not found')
      expectProblem(await api.call('GET', `/api/needs/${ofB.referenceNumber}`, { token }), 404, 'Not found')
    }
    const ofA = await createNeed({ partnerId: partnerA.id })
    expect((await api.call('GET', `/api/needs/${ofA.id}`, { token: tokens.volunteerA })).status).toBe(200)
  })

  test('the customFields of a confidential need are emptied for those who may not read them', async () => {
    const secret = await createNeed({ isConfidential: true, customFields: { story: 'private' } })
    const asStaff = await api.call<Need>('GET', `/api/needs/${secret.id}`, { token: tokens.staff })
    expect(asStaff.status).toBe(200)
    expect(asStaff.body.customFields).toEqual({})
    const listed = await api.call<Need[]>('GET', '/api/needs?limit=100', { token: tokens.staff })
    expect(listed.body.find((n) => n.id === secret.id)?.customFields).toEqual({})
    for (const token of [tokens.admin, tokens.piiStaff]) {
      expect((await api.call<Need>('GET', `/api/needs/${secret.id}`, { token })).body.customFields).toEqual({ story: 'private' })
    }
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', `/api/needs/${UNKNOWN_ID}`), 401, 'Unauthorized')
  })
})

describe('PUT /api/needs/{id}', () => {
  const put = (id: string, body: unknown, token = tokens.admin) => api.call<Need>('PUT', `/api/needs/${id}`, { token, body })

  test('updates status, assignee, partner (due date recomputed), details and confidentiality', async () => {
    const need = await createNeed({ partnerId: partnerA.id, customFields: { a: 1 } })
    world.clock.advance(1000)
    const response = await put(need.id, {
      status: 'IN_PROGRESS',
      assignedTo: ids.assignee,
      partnerId: partnerB.id,
      customFields: { b: 2 },
      isConfidential: true,
    })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      id: need.id,
      referenceNumber: need.referenceNumber,
      status: 'IN_PROGRESS',
      assignedTo: ids.assignee,
      partnerId: partnerB.id,
      customFields: { b: 2 },
      isConfidential: true,
      createdAt: need.createdAt,
    })
    expect(response.body.updatedAt).toMatch(ISO_MS)
    expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.parse(need.updatedAt))
    expect(Date.parse(response.body.dueDate) - Date.parse(need.createdAt)).toBe(72 * 3_600_000)
    expect((await api.call('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body).toEqual(response.body)
  })

  test('assignedTo null unassigns the need, and its history says so', async () => {
    const need = await createNeed({ assignedTo: ids.assignee })
    world.clock.advance(1000)
    const response = await put(need.id, { assignedTo: null })
    expect(response.status).toBe(200)
    expect(response.body).not.toHaveProperty('assignedTo')
    expect((await api.call('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body).toEqual(response.body)
    const unchanged = await put(need.id, { assignedTo: null })
    expect(unchanged.body).toEqual(response.body)
    const changes = (
      await api.call<Array<{ field: string; from?: string; to?: string }>>('GET', `/api/needs/${need.id}/history`, { token: tokens.admin })
    ).body
    expect(changes.filter((c) => c.field === 'assignedTo').map(({ from, to }) => ({ from, to }))).toEqual([
      { from: ids.assignee, to: undefined },
    ])
  })

  test('an empty body changes nothing', async () => {
    const need = await createNeed()
    world.clock.advance(1000)
    const response = await put(need.id, {})
    expect(response.status).toBe(200)
    expect(response.body).toEqual(need)
  })

  test('RESOLVED may only be reopened to IN_PROGRESS: RESOLVED to NEW is 409 Conflict', async () => {
    const need = await createNeed({ status: 'RESOLVED' })
    for (const status of ['NEW', 'PENDING_CLIENT', 'ESCALATED']) {
      expectProblem(await put(need.id, { status }), 409, 'Conflict')
    }
    expect((await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body.status).toBe('RESOLVED')
    expect((await put(need.id, { status: 'RESOLVED' })).status).toBe(200)
    const reopened = await put(need.id, { status: 'IN_PROGRESS' })
    expect(reopened.status).toBe(200)
    expect(reopened.body.status).toBe('IN_PROGRESS')
    expect((await put(need.id, { status: 'NEW' })).body.status).toBe('NEW')
  })

  test.each([
    ['a wrong type', { isConfidential: 1 }, '/isConfidential'],
    ['an unknown status', { status: 'CLOSED' }, '/status'],
    ['a malformed assignedTo', { assignedTo: 'bob' }, '/assignedTo'],
    ['an unknown property', { referenceNumber: 'X-1' }, '/referenceNumber'],
    ['a null status', { status: null }, '/status'],
    ['a bad customFields email', { customFields: { email: 'not-an-email' } }, '/customFields/email'],
  ])('%s is a 400', async (_label, body, field) => {
    const need = await createNeed()
    expectBadRequest(await put(need.id, body), field)
  })

  test('references must be of the organization; an archived partner is refused (400)', async () => {
    const need = await createNeed()
    expectBadRequest(await put(need.id, { partnerId: other.defaultPartner.id }), '/partnerId')
    expectBadRequest(await put(need.id, { partnerId: archived.id }), '/partnerId')
    expectBadRequest(await put(need.id, { assignedTo: ids.otherMember }), '/assignedTo')
    expect((await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body).toEqual(need)
  })

  test('an over-long id is a 400, malformed JSON a 400, an unknown id or reference a 404', async () => {
    expectBadRequest(await put('x'.repeat(65), { status: 'NEW' }), 'id')
    expectProblem(await put('REQ-999999', { status: 'NEW' }), 404, 'Not found')
    const need = await createNeed()
    expectBadRequest(
      await api.call('PUT', `/api/needs/${need.id}`, {
        token: tokens.admin,
        raw: '{"status":}',
        headers: { 'content-type': 'application/json' },
      }),
    )
    expectProblem(await put(UNKNOWN_ID, { status: 'NEW' }), 404, 'Not found')
  })

  test("another organization's need is 404 and stays unchanged", async () => {
    const mine = await createNeed()
    expectProblem(await put(mine.id, { status: 'ESCALATED' }, tokens.otherAdmin), 404, 'Not found')
    expect((await api.call<Need>('GET', `/api/needs/${mine.id}`, { token: tokens.admin })).body.status).toBe('NEW')
  })

  test("another partner's need is 404 to partner roles", async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    for (const token of [tokens.agentA, tokens.partnerAdminA, tokens.processorVolunteerA]) {
      expectProblem(await put(ofB.id, { status: 'IN_PROGRESS' }, token), 404, 'Not found')
    }
    const ofA = await createNeed({ partnerId: partnerA.id })
    expect((await put(ofA.id, { status: 'IN_PROGRESS' }, tokens.agentA)).status).toBe(200)
  })

  test('a volunteer may not update (403) unless it holds needs_processor', async () => {
    const ofA = await createNeed({ partnerId: partnerA.id })
    expectProblem(await put(ofA.id, { status: 'IN_PROGRESS' }, tokens.volunteerA), 403, 'Forbidden')
    const allowed = await put(ofA.id, { status: 'IN_PROGRESS' }, tokens.processorVolunteerA)
    expect(allowed.status).toBe(200)
    expect(allowed.body.status).toBe('IN_PROGRESS')
  })

  test('who cannot read a confidential need cannot overwrite its details or lift the flag (403)', async () => {
    const secret = await createNeed({ isConfidential: true, customFields: { story: 'private' } })
    expectProblem(await put(secret.id, { customFields: {} }, tokens.staff), 403, 'Forbidden')
    expectProblem(await put(secret.id, { isConfidential: false }, tokens.staff), 403, 'Forbidden')
    const statusOnly = await put(secret.id, { status: 'IN_PROGRESS' }, tokens.staff)
    expect(statusOnly.status).toBe(200)
    expect(statusOnly.body.customFields).toEqual({})
    expect((await api.call<Need>('GET', `/api/needs/${secret.id}`, { token: tokens.admin })).body.customFields).toEqual({
      story: 'private',
    })
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('PUT', `/api/needs/${UNKNOWN_ID}`, { body: { status: 'NEW' } }), 401, 'Unauthorized')
  })
})

describe('POST /api/needs/{id}/notes and GET /api/needs/{id}/interactions', () => {
  const addNote = (id: string, body: unknown, token = tokens.admin) => api.call('POST', `/api/needs/${id}/notes`, { token, body })
  const interactions = (id: string, token = tokens.admin) => api.call<any[]>('GET', `/api/needs/${id}/interactions`, { token })

  test('a note is 201 with the interaction; the list shows notes oldest first', async () => {
    const need = await createNeed({ partnerId: partnerA.id })
    expect((await interactions(need.id)).body).toEqual([])

    const first = await addNote(need.id, { content: 'Called back, left a message.' })
    expect(first.status).toBe(201)
    expect(Object.keys(first.body).sort()).toEqual([
      'channel',
      'content',
      'createdAt',
      'id',
      'needId',
      'organizationId',
      'partnerId',
      'senderIdentifier',
    ])
    expect(first.body).toMatchObject({
      organizationId: world.organizationId,
      partnerId: partnerA.id,
      needId: need.id,
      channel: 'note',
      content: 'Called back, left a message.',
    })
    expect(first.body.senderIdentifier.length).toBeGreaterThan(0)
    expect(first.body.createdAt).toMatch(ISO_MS)

    world.clock.advance(1000)
    const second = await addNote(need.id, { content: 'Delivered.' }, tokens.volunteerA)
    expect(second.status).toBe(201)

    const listed = await interactions(need.id)
    expect(listed.status).toBe(200)
    expect(listed.body.map((i) => i.id)).toEqual([first.body.id, second.body.id])
    expect(listed.body[0]).toEqual(first.body)
    expect(hasNoNulls(listed.body)).toBe(true)

    // Paged like every list (docs/api.md "Lists"): a need may gather any number of messages.
    const page2 = await api.call<any[]>('GET', `/api/needs/${need.id}/interactions?page=2&limit=1`, { token: tokens.admin })
    expect(page2.body.map((i) => i.id)).toEqual([second.body.id])
    expect(page2.headers.get('x-total-count')).toBe('2')
    expect(page2.headers.get('link')).toContain('rel="first"')
    expect((await api.call('GET', `/api/needs/${need.id}/interactions?limit=101`, { token: tokens.admin })).status).toBe(400)
  })

  test.each([
    ['no content', {}, '/content'],
    ['empty content', { content: '' }, '/content'],
    ['content over 5,000 characters', { content: 'x'.repeat(5001) }, '/content'],
    ['content of the wrong type', { content: 7 }, '/content'],
    ['an unknown property', { content: 'hi', channel: 'sms' }, '/channel'],
  ])('%s is a 400 Bad request', async (_label, body, field) => {
    const need = await createNeed()
    expectBadRequest(await addNote(need.id, body), field)
  })

  test('content of exactly 5,000 characters is accepted', async () => {
    const need = await createNeed()
    expect((await addNote(need.id, { content: 'x'.repeat(5000) })).status).toBe(201)
  })

  test('an unknown need is 404 Need not found', async () => {
    expectProblem(await addNote(UNKNOWN_ID, { content: 'hello' }), 404, 'Not found')
    expectProblem(await interactions(UNKNOWN_ID), 404, 'Not found')
  })

  test("another organization's need is 404 for both, and gets no note", async () => {
    const mine = await createNeed()
    expectProblem(await addNote(mine.id, { content: 'sneaky' }, tokens.otherAdmin), 404, 'Not found')
    expectProblem(await interactions(mine.id, tokens.otherAdmin), 404, 'Not found')
    expect((await interactions(mine.id)).body).toEqual([])
  })

  test("another partner's need is 404 to partner roles for both", async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    await addNote(ofB.id, { content: 'internal' })
    for (const token of [tokens.agentA, tokens.volunteerA]) {
      expectProblem(await addNote(ofB.id, { content: 'x' }, token), 404, 'Not found')
      expectProblem(await interactions(ofB.id, token), 404, 'Not found')
    }
  })

  test('the notes of a confidential need lose their content for those who may not read it', async () => {
    const secret = await createNeed({ isConfidential: true })
    await addNote(secret.id, { content: 'private words' })
    const asStaff = await interactions(secret.id, tokens.staff)
    expect(asStaff.status).toBe(200)
    expect(asStaff.body).toHaveLength(1)
    expect('content' in asStaff.body[0]).toBe(false)
    expect((await interactions(secret.id, tokens.piiStaff)).body[0].content).toBe('private words')
  })

  test('without a token both are 401', async () => {
    expectProblem(await api.call('POST', `/api/needs/${UNKNOWN_ID}/notes`, { body: { content: 'x' } }), 401, 'Unauthorized')
    expectProblem(await api.call('GET', `/api/needs/${UNKNOWN_ID}/interactions`), 401, 'Unauthorized')
  })
})

describe('a reference number wherever a need id is in a path', () => {
  test('PUT, notes, interactions, sms and history take the reference number in any case, and act on that need', async () => {
    const { constituentId } = await seedConstituent(api, tokens.admin!, { firstName: 'Ref', lastName: 'Number', phone: '+15550107788' })
    const need = await createNeed({ constituentId })
    const reference = need.referenceNumber.toLowerCase()

    const updated = await api.call<Need>('PUT', `/api/needs/${reference}`, { token: tokens.admin, body: { status: 'IN_PROGRESS' } })
    expect({ status: updated.status, id: updated.body.id, needStatus: updated.body.status }).toEqual({
      status: 200,
      id: need.id,
      needStatus: 'IN_PROGRESS',
    })
    const note = await api.call('POST', `/api/needs/${need.referenceNumber}/notes`, {
      token: tokens.admin,
      body: { content: 'By reference' },
    })
    expect({ status: note.status, needId: note.body.needId }).toEqual({ status: 201, needId: need.id })
    world.clock.advance(1000)
    const text = await api.call<{ interactionId: string }>('POST', `/api/needs/${reference}/sms`, {
      token: tokens.admin,
      body: { body: 'Your pickup is ready' },
    })
    expect(text.status).toBe(202)

    const interactions = await api.call<Array<{ id: string }>>('GET', `/api/needs/${reference}/interactions`, { token: tokens.admin })
    expect(interactions.body.map((i) => i.id)).toEqual([note.body.id, text.body.interactionId])
    const history = await api.call<Array<{ field: string; to?: string }>>('GET', `/api/needs/${reference}/history`, { token: tokens.admin })
    expect(history.body.map((c) => [c.field, c.to])).toEqual([
      ['status', 'NEW'],
      ['status', 'IN_PROGRESS'],
    ])
  })

  test("another partner's reference is 404 to partner roles on every route, and changes nothing", async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    const calls = [
      ['PUT', `/api/needs/${ofB.referenceNumber}`, { status: 'ESCALATED' }],
      ['POST', `/api/needs/${ofB.referenceNumber}/notes`, { content: 'x' }],
      ['GET', `/api/needs/${ofB.referenceNumber}/interactions`, undefined],
      ['GET', `/api/needs/${ofB.referenceNumber}/history`, undefined],
    ] as const
    for (const [method, path, body] of calls) {
      expectProblem(await api.call(method, path, { token: tokens.partnerAdminA, ...(body ? { body } : {}) }), 404, 'Not found')
    }
    expect((await api.call<Need>('GET', `/api/needs/${ofB.id}`, { token: tokens.admin })).body.status).toBe('NEW')
    expect((await api.call('GET', `/api/needs/${ofB.id}/interactions`, { token: tokens.admin })).body).toEqual([])
  })
})

describe('GET /api/needs/{id}/history', () => {
  type Change = { id: string; field: string; from?: string; to?: string; changedBy?: string; changedAt: string }
  const history = (id: string, token = tokens.admin, query = '') => api.call<Change[]>('GET', `/api/needs/${id}/history${query}`, { token })

  test('lists every change of status, assignee, partner, confidentiality and due date: who, when, from, to; oldest first', async () => {
    const need = await createNeed({ partnerId: partnerA.id })
    const admin = claimsOf(tokens.admin!).sub
    const agent = claimsOf(tokens.agentA!).sub
    world.clock.advance(60_000)
    expect(
      (await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.agentA, body: { status: 'IN_PROGRESS', assignedTo: ids.assignee } }))
        .status,
    ).toBe(200)
    world.clock.advance(60_000)
    expect(
      (await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.admin, body: { partnerId: partnerB.id, isConfidential: true } }))
        .status,
    ).toBe(200)

    const response = await history(need.id)
    expect(response.status).toBe(200)
    expect(response.body.map(({ id: _id, changedAt: _at, ...change }) => change)).toEqual([
      { field: 'status', to: 'NEW', changedBy: admin },
      { field: 'status', from: 'NEW', to: 'IN_PROGRESS', changedBy: agent },
      { field: 'assignedTo', to: ids.assignee, changedBy: agent },
      { field: 'partnerId', from: partnerA.id, to: partnerB.id, changedBy: admin },
      { field: 'isConfidential', from: 'false', to: 'true', changedBy: admin },
      // The move recomputed the due date from the new partner's SLA.
      {
        field: 'dueDate',
        from: need.dueDate,
        to: new Date(Date.parse(need.createdAt) + partnerB.slaHours * 3_600_000).toISOString(),
        changedBy: admin,
      },
    ])
    for (const change of response.body) expect(change.changedAt).toMatch(ISO_MS)
    const times = response.body.map((c) => Date.parse(c.changedAt))
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[1]! - times[0]!).toBe(60_000)
    expect(response.headers.get('x-total-count')).toBe('6')
  })

  test('is paged like every list', async () => {
    const need = await createNeed()
    for (const status of ['IN_PROGRESS', 'PENDING_CLIENT', 'ESCALATED', 'RESOLVED']) {
      expect((await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.admin, body: { status } })).status).toBe(200)
    }
    const second = await history(need.id, tokens.admin, '?page=2&limit=2')
    expect(second.body.map((c) => c.to)).toEqual(['PENDING_CLIENT', 'ESCALATED'])
    expect(second.headers.get('x-total-count')).toBe('5')
    const links = linksOf(second)
    expect([pageOfLink(links.prev), pageOfLink(links.next), pageOfLink(links.last)]).toEqual([
      { page: 1, limit: 2 },
      { page: 3, limit: 2 },
      { page: 3, limit: 2 },
    ])
    expectBadRequest(await history(need.id, tokens.admin, '?limit=101'), 'limit')
  })

  test('is seen by whoever sees the need: 404 for another organization, and for another partner to partner roles', async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    for (const token of [tokens.otherAdmin, tokens.agentA, tokens.volunteerA]) expectProblem(await history(ofB.id, token), 404, 'Not found')
    const ofA = await createNeed({ partnerId: partnerA.id })
    expect((await history(ofA.id, tokens.volunteerA)).status).toBe(200)
    expectProblem(await history(UNKNOWN_ID), 404, 'Not found')
    expectProblem(await api.call('GET', `/api/needs/${ofA.id}/history`), 401, 'Unauthorized')
  })
})
