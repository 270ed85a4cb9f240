import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, ISO_MS, linksOf, pageOfLink, UNKNOWN_ID } from './helpers'

// docs/api/conventions.md "Errors", docs/api/access.md "Permissions", docs/api/needs.md "Partners", over real HTTP.
type PartnerJson = Record<string, any> & { id: string; name: string; isDefault: boolean; isArchived: boolean; createdAt: string }

let api: TestServer
let world: World
let other: World
let partnerA: Partner
const tokens: Record<string, string> = {}

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  other = await world.otherOrganization()
  partnerA = await world.partner({ name: 'Pantry A' })
  const [admin, staff, agentA, partnerAdminA, volunteerA, otherAdmin] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'staff'),
    api.tokenFor(world, 'partner_agent', { partnerId: partnerA.id }),
    api.tokenFor(world, 'partner_admin', { partnerId: partnerA.id }),
    api.tokenFor(world, 'volunteer', { partnerId: partnerA.id }),
    api.tokenFor(other, 'org_admin'),
  ])
  Object.assign(tokens, { admin, staff, agentA, partnerAdminA, volunteerA, otherAdmin })
})
afterAll(() => api.stop())

const list = (query = '', token = tokens.admin) => api.call<PartnerJson[]>('GET', `/api/partners${query}`, { token })
const create = (body: unknown, token = tokens.admin) => api.call<PartnerJson>('POST', '/api/partners', { token, body })
const update = (id: string, body: unknown, token = tokens.admin) => api.call<PartnerJson>('PUT', `/api/partners/${id}`, { token, body })

async function createPartner(body: Record<string, unknown> = {}, token = tokens.admin): Promise<PartnerJson> {
  const response = await create({ name: `Partner ${crypto.randomUUID().slice(0, 6)}`, slaHours: 48, ...body }, token)
  expect(response.status).toBe(201)
  return response.body
}

describe('POST /api/partners', () => {
  test('answers 201 with the partner; absent optional fields are omitted', async () => {
    const response = await create({ name: 'Rent Help', slaHours: 24 })
    expect(response.status).toBe(201)
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'id', 'isArchived', 'isDefault', 'name', 'organizationId', 'slaHours'])
    expect(response.body).toMatchObject({
      name: 'Rent Help',
      slaHours: 24,
      organizationId: world.organizationId,
      isArchived: false,
      isDefault: false,
    })
    expect(response.body.createdAt).toMatch(ISO_MS)
  })

  test('keeps every optional field', async () => {
    const body = {
      name: 'Utility Help',
      slaHours: 8760,
      description: 'Electric and gas bills',
      keywords: ['electric', 'gas bill'],
      website: 'https://utility.example.org/help',
      publicCategoryName: 'Utilities',
    }
    const response = await create(body)
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject(body)
    const listed = (await list('?limit=100')).body.find((p) => p.id === response.body.id)
    expect(listed).toEqual(response.body)
  })

  test.each([
    ['no name', { slaHours: 1 }, '/name'],
    ['an empty name', { name: '', slaHours: 1 }, '/name'],
    ['a name over 200 characters', { name: 'x'.repeat(201), slaHours: 1 }, '/name'],
    ['no slaHours', { name: 'P' }, '/slaHours'],
    ['slaHours 0', { name: 'P', slaHours: 0 }, '/slaHours'],
    ['slaHours over 8,760', { name: 'P', slaHours: 8761 }, '/slaHours'],
    ['fractional slaHours', { name: 'P', slaHours: 1.5 }, '/slaHours'],
    ['slaHours as a string', { name: 'P', slaHours: '24' }, '/slaHours'],
    ['keywords that is not an array', { name: 'P', slaHours: 1, keywords: 'food' }, '/keywords'],
    ['an empty keyword', { name: 'P', slaHours: 1, keywords: [''] }, '/keywords'],
    ['more than 50 keywords', { name: 'P', slaHours: 1, keywords: Array.from({ length: 51 }, (_, i) => `k${i}`) }, '/keywords'],
    ['a website that is not http(s)', { name: 'P', slaHours: 1, website: 'javascript:alert(1)' }, '/website'],
    ['a description over 5,000 characters', { name: 'P', slaHours: 1, description: 'x'.repeat(5001) }, '/description'],
    ['isDefault that is not a boolean', { name: 'P', slaHours: 1, isDefault: 'true' }, '/isDefault'],
    ['isArchived, which a new partner cannot set', { name: 'P', slaHours: 1, isArchived: true }, '/isArchived'],
    ['an organizationId', { name: 'P', slaHours: 1, organizationId: UNKNOWN_ID }, '/organizationId'],
  ])('%s is a 400', async (_label, body, field) => {
    expectBadRequest(await create(body), field)
  })

  test('malformed JSON is a 400', async () => {
    expectBadRequest(
      await api.call('POST', '/api/partners', {
        token: tokens.admin,
        raw: '{"name": "P", slaHours: 1}',
        headers: { 'content-type': 'application/json' },
      }),
    )
  })

  test('only an org_admin creates partners: every other role is 403', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.partnerAdminA, tokens.volunteerA]) {
      expectProblem(await create({ name: 'Nope', slaHours: 1 }, token), 403, 'Forbidden')
    }
    expect((await list('?limit=100')).body.some((p) => p.name === 'Nope')).toBe(false)
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('POST', '/api/partners', { body: { name: 'P', slaHours: 1 } }), 401, 'Unauthorized')
  })
})

describe('GET /api/partners', () => {
  test('lists the organization partners newest first, archived ones included, with paging headers', async () => {
    const older = await createPartner()
    world.clock.advance(1000)
    const newer = await createPartner()
    const gone = await createPartner()
    expect((await update(gone.id, { isArchived: true })).status).toBe(200)

    const response = await list('?limit=100')
    expect(response.status).toBe(200)
    const listed = response.body.map((p) => p.id)
    expect(listed.indexOf(newer.id)).toBeLessThan(listed.indexOf(older.id))
    expect(listed).toContain(gone.id)
    expect(listed).toContain(world.defaultPartner.id)
    const times = response.body.map((p) => Date.parse(p.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(response.headers.get('x-total-count')).toBe(String(response.body.length))
    expect(response.body.every((p) => p.organizationId === world.organizationId)).toBe(true)
  })

  test('pages with X-Total-Count and Link', async () => {
    await world.partner({ name: 'Pantry paged' })
    const total = Number((await list()).headers.get('x-total-count'))
    expect(total).toBeGreaterThanOrEqual(3)
    const first = await list('?limit=1')
    expect(first.body).toHaveLength(1)
    const links = linksOf(first)
    expect(pageOfLink(links.first)).toEqual({ page: 1, limit: 1 })
    expect(pageOfLink(links.next)).toEqual({ page: 2, limit: 1 })
    expect(pageOfLink(links.last)).toEqual({ page: total, limit: 1 })
    expect(links.prev).toBeUndefined()
    const second = await list('?limit=1&page=2')
    expect(second.body[0]!.id).not.toBe(first.body[0]!.id)
    expect(pageOfLink(linksOf(second).prev)).toEqual({ page: 1, limit: 1 })
  })

  test.each(['page=0', 'limit=0', 'limit=101', 'page=x', 'archived=true'])('?%s is a 400', async (query) => {
    expectBadRequest(await list(`?${query}`))
  })

  test('every role may list', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.partnerAdminA, tokens.volunteerA]) {
      const response = await list('', token)
      expect(response.status).toBe(200)
      expect(response.body.map((p) => p.id)).toContain(partnerA.id)
    }
  })

  test("another organization's partners never show", async () => {
    const response = await list('?limit=100', tokens.otherAdmin)
    expect(response.status).toBe(200)
    expect(response.body.map((p) => p.id)).toEqual([other.defaultPartner.id])
    expect(response.headers.get('x-total-count')).toBe('1')
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('GET', '/api/partners'), 401, 'Unauthorized')
  })
})

describe('PUT /api/partners/{id}', () => {
  test('updates the given fields and leaves the others', async () => {
    const partner = await createPartner({ description: 'Before', keywords: ['food'] })
    const response = await update(partner.id, { name: 'Renamed', slaHours: 12, keywords: ['food', 'pantry'], publicCategoryName: 'Food' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ ...partner, name: 'Renamed', slaHours: 12, keywords: ['food', 'pantry'], publicCategoryName: 'Food' })
    expect((await list('?limit=100')).body.find((p) => p.id === partner.id)).toEqual(response.body)
  })

  test('archives and restores a partner that is not the default', async () => {
    const partner = await createPartner()
    expect((await update(partner.id, { isArchived: true })).body.isArchived).toBe(true)
    expect((await update(partner.id, { isArchived: false })).body.isArchived).toBe(false)
  })

  test('archiving the default partner, or taking its default away, is 409 Conflict', async () => {
    expectProblem(await update(world.defaultPartner.id, { isArchived: true }), 409, 'Conflict')
    expectProblem(await update(world.defaultPartner.id, { isDefault: false }), 409, 'Conflict')
    const after = (await list('?limit=100')).body.find((p) => p.id === world.defaultPartner.id)
    expect(after).toMatchObject({ isDefault: true, isArchived: false })
  })

  test('making an archived partner the default is 409 Conflict', async () => {
    const partner = await createPartner()
    await update(partner.id, { isArchived: true })
    expectProblem(await update(partner.id, { isDefault: true }), 409, 'Conflict')
  })

  test('making another partner the default clears the old default, and the old one may then be archived', async () => {
    const org = await world.otherOrganization()
    const admin = await api.tokenFor(org, 'org_admin')
    const next = await createPartner({}, admin)

    const response = await update(next.id, { isDefault: true }, admin)
    expect(response.status).toBe(200)
    expect(response.body.isDefault).toBe(true)
    const partners = (await list('', admin)).body
    expect(partners.filter((p) => p.isDefault).map((p) => p.id)).toEqual([next.id])
    expect((await update(org.defaultPartner.id, { isArchived: true }, admin)).status).toBe(200)

    // Created as the default, a partner takes the role over at once.
    const third = await createPartner({ isDefault: true }, admin)
    expect((await list('', admin)).body.filter((p) => p.isDefault).map((p) => p.id)).toEqual([third.id])
  })

  test.each([
    ['an empty name', { name: '' }, '/name'],
    ['slaHours 0', { slaHours: 0 }, '/slaHours'],
    ['isArchived as a string', { isArchived: 'yes' }, '/isArchived'],
    ['a website that is not http(s)', { website: 'ftp://example.org' }, '/website'],
    ['keywords of the wrong type', { keywords: [1, 2] }, '/keywords'],
    ['an unknown property', { color: 'red' }, '/color'],
    ['an id in the body', { id: UNKNOWN_ID }, '/id'],
  ])('%s is a 400', async (_label, body, field) => {
    const partner = await createPartner()
    expectBadRequest(await update(partner.id, body), field)
  })

  test('a malformed id is a 400; an unknown id is 404 Partner not found', async () => {
    expectBadRequest(await update('partner-1', { name: 'X' }), 'id')
    expectProblem(await update(UNKNOWN_ID, { name: 'X' }), 404, 'Not found')
  })

  test("another organization's partner is 404 and stays unchanged", async () => {
    for (const body of [{ name: 'Hijacked' }, { isArchived: true }, { isDefault: true }]) {
      expectProblem(await update(partnerA.id, body, tokens.otherAdmin), 404, 'Not found')
    }
    expect((await list('?limit=100')).body.find((p) => p.id === partnerA.id)).toMatchObject({
      name: 'Pantry A',
      isArchived: false,
      isDefault: false,
    })
    const theirs = (await list('', tokens.otherAdmin)).body
    expect(theirs.map((p) => p.id)).not.toContain(partnerA.id)
  })

  test("a partner_admin updates its own partner's details, nothing else (403)", async () => {
    const renamed = await update(partnerA.id, { description: 'Open Mondays' }, tokens.partnerAdminA)
    expect(renamed.status).toBe(200)
    expect(renamed.body.description).toBe('Open Mondays')
    const otherPartner = await createPartner()
    expectProblem(await update(otherPartner.id, { name: 'Mine now' }, tokens.partnerAdminA), 403, 'Forbidden')
    expectProblem(await update(partnerA.id, { isArchived: true }, tokens.partnerAdminA), 403, 'Forbidden')
    expectProblem(await update(partnerA.id, { isDefault: true }, tokens.partnerAdminA), 403, 'Forbidden')
  })

  test('staff, partner agents and volunteers may not update partners (403)', async () => {
    for (const token of [tokens.staff, tokens.agentA, tokens.volunteerA]) {
      expectProblem(await update(partnerA.id, { name: 'X' }, token), 403, 'Forbidden')
    }
  })

  test('without a token it is a 401', async () => {
    expectProblem(await api.call('PUT', `/api/partners/${partnerA.id}`, { body: { name: 'X' } }), 401, 'Unauthorized')
  })
})
