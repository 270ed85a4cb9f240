import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Partner } from '../../../src/domain/partners/partner'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem, ISO_MS, seedConstituent, UNKNOWN_ID } from './helpers'

// docs/api/needs.md "Needs", over real HTTP. The per-address limit is high here; it has
// its own file (public-intake-rate-limit.test.ts).
type Need = Record<string, any> & { id: string; partnerId: string; referenceNumber: string }

let api: TestServer
let world: World
let other: World
let rent: Partner
let food: Partner
let closed: Partner
let admin: string

beforeAll(async () => {
  api = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '1000' })
  world = api.world
  other = await world.otherOrganization()
  rent = await world.partner({ name: 'Housing', keywords: ['rent', 'eviction notice'] })
  world.clock.advance(1000)
  food = await world.partner({ name: 'Pantry', keywords: ['food', 'groceries', 'rent'] })
  closed = await world.partner({ name: 'Closed', keywords: ['utilities'], isArchived: true })
  admin = await api.tokenFor(world, 'org_admin')
})
afterAll(() => api.stop())

const submit = (body: unknown, headers: Record<string, string> = {}) => api.call<Need>('POST', '/api/needs/public', { body, headers })

describe('POST /api/needs/public', () => {
  test('needs no credentials and answers 201 with the need, keeping the description in customFields', async () => {
    const response = await submit({ organizationId: world.organizationId, description: 'I need help with my heating' })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    const need = response.body
    expect(need).toMatchObject({
      organizationId: world.organizationId,
      partnerId: world.defaultPartner.id,
      status: 'NEW',
      isConfidential: false,
      customFields: { description: 'I need help with my heating' },
    })
    expect(need.referenceNumber).toMatch(/^REQ-\d+$/)
    for (const field of ['createdAt', 'updatedAt', 'dueDate']) expect(need[field]).toMatch(ISO_MS)
    expect(need).not.toHaveProperty('createdBy')
    expect(Object.values(need).includes(null)).toBe(false)

    const asStaff = await api.call<Need>('GET', `/api/needs/${need.id}`, { token: admin })
    expect(asStaff.status).toBe(200)
    expect(asStaff.body.customFields).toEqual({ description: 'I need help with my heating' })
  })

  test('never tells who else is on file: no duplicateWarning, constituentId or householdId in the answer', async () => {
    const { constituentId, householdId } = await seedConstituent(api, admin)
    const response = await submit({
      organizationId: world.organizationId,
      description: 'Food for my family',
      constituentId,
      customFields: { firstName: 'Ada', lastName: 'Lovelace', phone: '+15551234567' },
    })
    expect(response.status).toBe(201)
    for (const hidden of ['duplicateWarning', 'possibleDuplicates', 'constituentId', 'householdId'])
      expect(response.body).not.toHaveProperty(hidden)

    // Staff see the links the anonymous caller does not.
    const asStaff = await api.call<Need>('GET', `/api/needs/${response.body.id}`, { token: admin })
    expect(asStaff.body).toMatchObject({ constituentId, householdId })
  })

  test('contact keys become a new constituent in a new household, checked for duplicates; the answer shows none of it', async () => {
    const existing = await seedConstituent(api, admin, { firstName: 'Grace', lastName: 'Hopper', phone: '+15554440001' })
    const response = await submit({
      organizationId: world.organizationId,
      description: 'Need groceries',
      customFields: { firstName: 'Gracie', lastName: 'Hopper', phone: '+15554440001', email: 'gracie@example.org' },
    })
    expect(response.status).toBe(201)
    for (const hidden of ['duplicateWarning', 'possibleDuplicates', 'constituentId', 'householdId'])
      expect(response.body).not.toHaveProperty(hidden)
    expect(JSON.stringify(response.body)).not.toContain(existing.constituentId)
    expect(JSON.stringify(response.body)).not.toContain('Possible duplicate')

    const asStaff = (await api.call<Need>('GET', `/api/needs/${response.body.id}`, { token: admin })).body
    expect(asStaff.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    expect(asStaff.constituentId).toBeString()
    expect(asStaff.constituentId).not.toBe(existing.constituentId)
    expect(asStaff.householdId).toBeString()
    expect(asStaff.householdId).not.toBe(existing.householdId)

    const registered = await api.call('GET', '/api/constituents?query=gracie@example.org', { token: admin })
    expect(registered.body).toEqual([
      {
        id: asStaff.constituentId,
        householdId: asStaff.householdId,
        firstName: 'Gracie',
        lastName: 'Hopper',
        phone: '+15554440001',
        email: 'gracie@example.org',
      },
    ])
    const matches = await api.call<Array<Record<string, unknown>>>('GET', '/api/household-matches?status=OPEN&limit=100', { token: admin })
    expect(matches.body.filter((m) => m.constituentId === asStaff.constituentId)).toEqual([
      expect.objectContaining({ candidateConstituentId: existing.constituentId, reason: 'same phone', status: 'OPEN' }),
    ])
  })

  test('a submission without contact keys registers no one', async () => {
    const response = await submit({ organizationId: world.organizationId, description: 'help', customFields: { householdSize: 3 } })
    const asStaff = (await api.call<Need>('GET', `/api/needs/${response.body.id}`, { token: admin })).body
    for (const absent of ['constituentId', 'householdId', 'duplicateWarning']) expect(asStaff).not.toHaveProperty(absent)
  })

  test('routes by keyword: the first open partner with a matching word, else the default partner', async () => {
    const routed = async (description: string) => (await submit({ organizationId: world.organizationId, description })).body.partnerId
    expect(await routed('Behind on RENT this month')).toBe(rent.id)
    expect(await routed('Need groceries please')).toBe(food.id)
    // A keyword of several words matches when all its words are there.
    expect(await routed('I got an eviction notice today')).toBe(rent.id)
    expect(await routed('no eviction yet')).toBe(world.defaultPartner.id)
    // Words, not substrings.
    expect(await routed('Need foodstuffs')).toBe(world.defaultPartner.id)
    // An archived partner takes nothing, even when its keyword matches.
    expect(await routed('My utilities were cut off')).toBe(world.defaultPartner.id)
  })

  test('a given partnerId is used as is', async () => {
    const response = await submit({ organizationId: world.organizationId, description: 'rent', partnerId: food.id })
    expect(response.status).toBe(201)
    expect(response.body.partnerId).toBe(food.id)
  })

  test('keeps customFields, the description winning over a customFields.description', async () => {
    const response = await submit({
      organizationId: world.organizationId,
      description: 'the real one',
      customFields: { description: 'ignored', householdSize: 4 },
      isConfidential: true,
    })
    expect(response.status).toBe(201)
    expect(response.body.customFields).toEqual({ description: 'the real one', householdSize: 4 })
    expect(response.body.isConfidential).toBe(true)
  })

  test('an Authorization header, even a broken one, changes nothing', async () => {
    const response = await submit({ organizationId: world.organizationId, description: 'food' }, { authorization: 'Bearer garbage' })
    expect(response.status).toBe(201)
  })

  test('an unknown organizationId is a 400 "Bad Request"', async () => {
    expectBadRequest(await submit({ organizationId: UNKNOWN_ID, description: 'food' }), '/organizationId', 'Bad request')
  })

  describe('the organization by slug', () => {
    const slugOf = async (token: string) => (await api.call<{ slug: string }>('GET', '/api/organizations/settings', { token })).body.slug
    let slug: string
    let otherSlug: string
    beforeAll(async () => {
      slug = await slugOf(admin)
      otherSlug = await slugOf(await api.tokenFor(other, 'org_admin'))
    })

    test('organizationSlug names the organization as organizationId does', async () => {
      const response = await submit({ organizationSlug: slug, description: 'Food for the week' })
      expect(response.status).toBe(201)
      expect(response.body.organizationId).toBe(world.organizationId)
      const asStaff = await api.call<Need>('GET', `/api/needs/${response.body.id}`, { token: admin })
      expect(asStaff.body.customFields).toEqual({ description: 'Food for the week' })
    })

    test('both are accepted when they name the same organization', async () => {
      const response = await submit({ organizationId: world.organizationId, organizationSlug: slug, description: 'food' })
      expect({ status: response.status, organizationId: response.body.organizationId }).toEqual({
        status: 201,
        organizationId: world.organizationId,
      })
    })

    test('neither is a 400 naming /organizationId; both naming different organizations a 400 naming /organizationSlug', async () => {
      expectBadRequest(await submit({ description: 'food' }), '/organizationId', 'Bad request')
      expectBadRequest(
        await submit({ organizationId: world.organizationId, organizationSlug: otherSlug, description: 'food' }),
        '/organizationSlug',
        'Bad request',
      )
      expectBadRequest(
        await submit({ organizationId: other.organizationId, organizationSlug: slug, description: 'food' }),
        '/organizationSlug',
        'Bad request',
      )
    })

    test('an unknown or malformed slug is a 400 naming /organizationSlug', async () => {
      expectBadRequest(await submit({ organizationSlug: 'no-such-organization', description: 'food' }), '/organizationSlug', 'Bad request')
      expectBadRequest(await submit({ organizationSlug: 'Not A Slug', description: 'food' }), '/organizationSlug', 'Bad request')
      expectBadRequest(await submit({ organizationSlug: 'x'.repeat(64), description: 'food' }), '/organizationSlug', 'Bad request')
    })
  })

  test('references to another organization, an unknown or an archived partner are 400 "Bad Request"', async () => {
    const foreignNeed = (await submit({ organizationId: other.organizationId, description: 'x' })).body
    const foreign = await seedConstituent(api, await api.tokenFor(other, 'org_admin'))
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ partnerId: other.defaultPartner.id }, '/partnerId'],
      [{ partnerId: UNKNOWN_ID }, '/partnerId'],
      [{ partnerId: closed.id }, '/partnerId'],
      [{ parentNeedId: foreignNeed.id }, '/parentNeedId'],
      [{ constituentId: foreign.constituentId }, '/constituentId'],
      [{ householdId: foreign.householdId }, '/householdId'],
    ]
    for (const [body, field] of cases) {
      expectBadRequest(await submit({ organizationId: world.organizationId, description: 'food', ...body }), field, 'Bad request')
    }
  })

  test.each([
    ['no organizationId', { description: 'food' }, '/organizationId'],
    ['a malformed organizationId', { organizationId: 'acme', description: 'food' }, '/organizationId'],
    ['no description', {}, '/description'],
    ['an empty description', { description: '' }, '/description'],
    ['a description over 5,000 characters', { description: 'x'.repeat(5001) }, '/description'],
    ['a description of the wrong type', { description: ['food'] }, '/description'],
    ['isConfidential of the wrong type', { description: 'food', isConfidential: 'no' }, '/isConfidential'],
    ['a malformed partnerId', { description: 'food', partnerId: 'pantry' }, '/partnerId'],
    ['an unknown property', { description: 'food', status: 'RESOLVED' }, '/status'],
    ['assignedTo, which only staff set', { description: 'food', assignedTo: UNKNOWN_ID }, '/assignedTo'],
    ['a contact phone that is not E.164', { description: 'food', customFields: { phone: '555 1234' } }, '/customFields/phone'],
    ['a contact email that is not an email', { description: 'food', customFields: { email: 'me at home' } }, '/customFields/email'],
    ['a contact ZIP that is not five digits', { description: 'food', customFields: { addressZip: '1234' } }, '/customFields/addressZip'],
    ['a contact field that is not a string', { description: 'food', customFields: { firstName: 42 } }, '/customFields/firstName'],
    ['customFields over 16 KiB', { description: 'food', customFields: { story: 'x'.repeat(17 * 1024) } }, '/customFields'],
  ])('%s is a 400 "Bad Request"', async (_label, body, field) => {
    const response = await submit({ ...(field === '/organizationId' ? {} : { organizationId: world.organizationId }), ...body })
    expectBadRequest(response, field, 'Bad request')
  })

  test('a description of exactly 5,000 characters is accepted', async () => {
    expect((await submit({ organizationId: world.organizationId, description: 'x'.repeat(5000) })).status).toBe(201)
  })

  test('malformed JSON and an empty body are 400 "Bad Request"', async () => {
    const broken = await api.call('POST', '/api/needs/public', {
      raw: '{"organizationId": ',
      headers: { 'content-type': 'application/json' },
    })
    expectBadRequest(broken, undefined, 'Bad request')
    expectBadRequest(await api.call('POST', '/api/needs/public', { raw: '' }), undefined, 'Bad request')
  })

  test('a body over 256 KiB is 413 Payload too large', async () => {
    const raw = JSON.stringify({ organizationId: world.organizationId, description: 'x', customFields: { blob: 'x'.repeat(256 * 1024) } })
    expectProblem(
      await api.call('POST', '/api/needs/public', { raw, headers: { 'content-type': 'application/json' } }),
      413,
      'Payload too large',
    )
  })
})
