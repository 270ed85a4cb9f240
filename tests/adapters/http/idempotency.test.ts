import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, randomUUID } from 'node:crypto'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { claimsOf, expectBadRequest, expectProblem } from './helpers'

// docs/api/conventions.md "Retrying a create", over real HTTP on SQLite (and PostgreSQL with TEST_DATABASE=postgres):
// the Idempotency-Key header of the creates, what a retry answers, and what is kept of a key.
type Need = Record<string, any> & { id: string; referenceNumber: string }

const DAY = 24 * 60 * 60 * 1000

let api: TestServer
let world: World
let admin: string
beforeAll(async () => {
  api = await startTestServer({ PUBLIC_INTAKE_RATE_LIMIT: '1000' })
  // An organization of this file's own: its needs are counted.
  world = await api.world.otherOrganization()
  admin = await api.tokenFor(world, 'org_admin')
})
afterAll(() => api.stop())

const keyed = (key: string) => ({ 'Idempotency-Key': key })
const createNeed = (key: string, body: Record<string, unknown> = {}, token = admin) =>
  api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body }, headers: keyed(key) })
const submit = (key: string, body: Record<string, unknown> = {}) =>
  api.call<Need>('POST', '/api/needs/public', {
    body: { organizationId: world.organizationId, description: 'Food for two', ...body },
    headers: keyed(key),
  })
/** The same member's token anew, once the clock has moved past the last one's expiry. */
async function loginAgain(): Promise<void> {
  const member = await world.repositories.members.findById(world.organizationId, claimsOf(admin).sub)
  const organization = await world.repositories.organizations.findById(world.organizationId)
  admin = await api.login(member!.email, organization!.slug)
}
const needCount = async () => Number((await api.call('GET', '/api/needs', { token: admin })).headers.get('x-total-count'))

describe('POST /api/needs with an Idempotency-Key', () => {
  test('a retry answers 201 with the need the first made, and creates none', async () => {
    const key = randomUUID()
    const before = await needCount()
    const first = await createNeed(key, { customFields: { program: 'winter' } })
    const retried = await createNeed(key, { customFields: { program: 'winter' } })

    expect(first.status).toBe(201)
    expect(retried.status).toBe(201)
    expect(retried.body).toMatchObject({ id: first.body.id, referenceNumber: first.body.referenceNumber })
    expect(await needCount()).toBe(before + 1)
  })

  test('the key with another request is 422, idempotency-key-reused, and creates none', async () => {
    const key = randomUUID()
    await createNeed(key, { customFields: { bags: 1 } })
    const before = await needCount()
    const response = await createNeed(key, { customFields: { bags: 2 } })

    expectProblem(response, 422, 'Unprocessable content')
    expect(response.body.type).toBe('tag:intake.example,2026:problems/idempotency-key-reused')
    expect(response.body.detail).toContain('different request')
    expect(await needCount()).toBe(before)
  })

  test.each([
    ['with a space', 'two words', 'must be visible ASCII characters, without spaces'],
    ['longer than 255 characters', 'k'.repeat(256), 'must be at most 255 characters'],
    ['empty', '', 'must not be empty'],
  ])('a key %s is 400 naming the header, and creates nothing', async (_name, key, message) => {
    const before = await needCount()
    const body = expectBadRequest(await createNeed(key))
    expect(body.errors).toEqual([{ path: 'headers/idempotency-key', message }])
    expect(await needCount()).toBe(before)
  })

  test('an anonymous caller is 401, whatever its key', async () => {
    const response = await api.call('POST', '/api/needs', { body: {}, headers: keyed('two words') })
    expectProblem(response, 401, 'Unauthorized')
  })

  test('two requests with one key at once make one need: each is answered with it, or 409 while it was not committed', async () => {
    const key = randomUUID()
    const before = await needCount()
    const answers = await Promise.all([createNeed(key), createNeed(key), createNeed(key)])

    expect(await needCount()).toBe(before + 1)
    const made = answers.filter((answer) => answer.status === 201)
    expect(made.length).toBeGreaterThan(0)
    expect(new Set(made.map((answer) => answer.body.id)).size).toBe(1)
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expectProblem(answer, 409, 'Conflict')
      expect(answer.body.detail).toContain('still being processed')
    }
    expect((await createNeed(key)).body.id).toBe(made[0]!.body.id)
  })

  test('a key is kept 24 hours, as digests: neither the key nor the request is stored', async () => {
    const key = `secret-${randomUUID()}`
    const first = await createNeed(key, { customFields: { firstName: 'Xiomara', program: 'winter' } })
    const tables = await api.storedRows()
    expect(tables.some((table) => table.includes(key))).toBe(false)
    // The keys' table: the operation, the key's SHA-256, the need's id, and nothing of the request.
    const keys = tables.find((table) => table.includes('create_need'))!
    expect(keys).toContain(createHash('sha256').update(key).digest('hex'))
    expect(keys).toContain(first.body.id)
    expect(keys).not.toContain('Xiomara')

    world.clock.advance(DAY)
    await loginAgain()
    const again = await createNeed(key, { customFields: { firstName: 'Xiomara', program: 'winter' } })
    expect(again.status).toBe(201)
    expect(again.body.id).not.toBe(first.body.id)
  })
})

describe('POST /api/needs/public with an Idempotency-Key', () => {
  test('a retry answers 201 with the public need the first made, its reference number, and creates none', async () => {
    const key = randomUUID()
    const before = await needCount()
    const first = await submit(key, { customFields: { firstName: 'Ana' } })
    const retried = await submit(key, { customFields: { firstName: 'Ana' } })

    expect(first.status).toBe(201)
    expect(retried.status).toBe(201)
    expect(retried.body).toEqual(first.body)
    expect(retried.body).not.toHaveProperty('constituentId')
    expect(await needCount()).toBe(before + 1)
  })

  test('another request under the key is 422; a bad key is 400 naming the header', async () => {
    const key = randomUUID()
    await submit(key)
    expectProblem(await submit(key, { description: 'Rent' }), 422, 'Unprocessable content')
    expect(expectBadRequest(await submit('clé')).errors).toEqual([
      { path: 'headers/idempotency-key', message: 'must be visible ASCII characters, without spaces' },
    ])
  })
})

describe('POST /api/needs/{id}/notes with an Idempotency-Key', () => {
  test('a retry answers 201 with the note the first added, and adds none', async () => {
    const need = (await createNeed(randomUUID())).body
    const key = randomUUID()
    const note = () => api.call('POST', `/api/needs/${need.id}/notes`, { token: admin, body: { content: 'Called' }, headers: keyed(key) })
    const [first, retried] = [await note(), await note()]
    expect([first.status, retried.status]).toEqual([201, 201])
    expect(retried.body).toEqual(first.body)
    const notes = await api.call('GET', `/api/needs/${need.id}/interactions`, { token: admin })
    expect(notes.headers.get('x-total-count')).toBe('1')
  })
})
