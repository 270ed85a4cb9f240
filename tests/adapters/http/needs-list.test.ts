import { beforeAll, describe, expect, test } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { expectBadRequest, expectProblem, ISO_MS, linksOf, pageOfLink, withoutTexting } from './helpers'
import { api, ids, openNeedsServer, other, partnerA, partnerB, tokens, world } from './needs-support'
import { createNeed, createOtherNeed, hasNoNulls, type Need } from './needs-support'

// docs/api/conventions.md "Lists", docs/api/needs.md "Needs" and docs/api/access.md "Permissions": the list of needs, over
// real HTTP. It is every caller's
// queue, so its order, paging and filters must hold, and it must show each caller only the needs it may see.
openNeedsServer()

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
    expect(item).toEqual(withoutTexting((await api.call('GET', `/api/needs/${item.id}`, { token: tokens.admin })).body))
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

  test('createdFrom, createdTo, resolvedFrom and resolvedTo bound when needs were made and resolved, with the other filters', async () => {
    const at = (need: Need) => need.createdAt
    const [, second, third, fourth] = created
    const idsOf = async (query: string) => {
      const response = await list(`?partnerId=${listing.id}&${query}`)
      expect(response.status).toBe(200)
      return { ids: response.body.map((n) => n.id), total: response.headers.get('x-total-count') }
    }
    expect(await idsOf(`createdFrom=${at(second!)}&createdTo=${at(fourth!)}`)).toEqual({ ids: [third!.id, second!.id], total: '2' })
    world.clock.advance(60_000)
    const resolving = world.clock.now().toISOString()
    expect((await api.call('PUT', `/api/needs/${third!.id}`, { token: tokens.admin, body: { status: 'RESOLVED' } })).status).toBe(200)
    world.clock.advance(1000)
    expect(await idsOf(`resolvedFrom=${resolving}`)).toEqual({ ids: [third!.id], total: '1' })
    expect(await idsOf(`resolvedFrom=${resolving}&resolvedTo=${resolving}`)).toEqual({ ids: [], total: '0' })
    expect(await idsOf(`resolvedTo=${world.clock.now().toISOString()}&status=NEW`)).toEqual({ ids: [], total: '0' })
    expect(await idsOf(`resolvedFrom=${resolving}&createdTo=${at(third!)}`)).toEqual({ ids: [], total: '0' })
    for (const name of ['createdFrom', 'createdTo', 'resolvedFrom', 'resolvedTo']) {
      expectBadRequest(await list(`?${name}=2026-13-01`), `query/${name}`)
      expectBadRequest(await list(`?${name}=yesterday`), `query/${name}`)
    }
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
    ['sort=name', 'sort'],
    ['sort=createdAt,status', 'sort'],
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
