import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { claimsOf } from './helpers'

// docs/constituents.md "Duplicate detection" (who learns what of a possible duplicate) and docs/audit.md
// (what showing one records), over real HTTP on SQLite (and PostgreSQL with TEST_DATABASE=postgres).
type Hints = { possibleDuplicates?: Array<{ constituentId: string; reasons: string[] }>; duplicateWarning?: string }
type Answer = Hints & { id: string; constituentId?: string }

let api: TestServer
let world: World
const tokens: Record<'admin' | 'staff' | 'agent' | 'contactReader', string> = { admin: '', staff: '', agent: '', contactReader: '' }

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  const [admin, staff, agent, contactReader] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'staff'),
    api.tokenFor(world, 'partner_agent', { partnerId: world.defaultPartner.id }),
    api.tokenFor(world, 'staff', { profiles: ['email_phone_communicator'] }),
  ])
  Object.assign(tokens, { admin, staff, agent, contactReader })
})
afterAll(() => api.stop())

let phones = 0
const newPhone = () => `+1555${String(6_000_000 + ++phones).padStart(7, '0')}`

async function post(path: string, body: Record<string, unknown>, token: string): Promise<Answer> {
  const response = await api.call<Answer>('POST', path, { token, body })
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 })
  return response.body
}
const registerConstituent = (fields: Record<string, unknown>, token = tokens.admin) => post('/api/constituents', fields, token)
const needWith = (customFields: Record<string, unknown>, token = tokens.admin) =>
  post('/api/needs', { partnerId: world.defaultPartner.id, customFields }, token)

/** The ways a caseworker registers a person: directly, or through a need's contact keys. */
const CREATIONS = [
  ['POST /api/constituents', (fields: Record<string, unknown>, token: string) => registerConstituent(fields, token)],
  ['POST /api/needs', (fields: Record<string, unknown>, token: string) => needWith(fields, token)],
] as const

/** The `read` events the token's member caused, as the admin reads them. */
async function readsBy(token: string): Promise<Array<{ recordId: string; fields?: string[] }>> {
  const response = await api.call('GET', `/api/audit-events?action=read&memberId=${claimsOf(token).sub}&limit=100`, { token: tokens.admin })
  expect(response.status).toBe(200)
  return response.body
}

describe.each(CREATIONS)('%s', (route, create) => {
  test('staff and partner_agent, who may not read phones, are told of no match on one; the match is there for resolvers', async () => {
    for (const token of [tokens.staff, tokens.agent]) {
      const phone = newPhone()
      const known = await registerConstituent({ firstName: 'Known', phone })
      const matched = await create({ firstName: 'x', phone }, token)
      const unmatched = await create({ firstName: 'y', phone: newPhone() }, token)
      for (const answer of [matched, unmatched]) {
        expect(answer).not.toHaveProperty('possibleDuplicates')
        expect(answer).not.toHaveProperty('duplicateWarning')
      }
      // The matches are there for those who resolve them; the caller read no one.
      const matches = await api.call<Array<{ constituentId: string; candidateConstituentId: string }>>(
        'GET',
        '/api/household-matches?limit=100',
        { token: tokens.admin },
      )
      const made = matched.constituentId ?? matched.id
      expect(matches.body.filter((m) => m.constituentId === made).map((m) => m.candidateConstituentId)).toContain(known.id)
      expect(await readsBy(token)).toEqual([])
    }
  })

  test('a member who reads phones sees who shares the phone, and that read is audited naming the phone', async () => {
    const phone = newPhone()
    const lastName = `Hint${randomUUID().slice(0, 8)}`
    const known = await registerConstituent({ firstName: 'Known', phone })
    const alike = await registerConstituent({ firstName: 'Ana', lastName, dateOfBirth: '1980-05-01' })
    const before = (await readsBy(tokens.contactReader)).length
    const created = await create({ firstName: 'Ana', lastName, dateOfBirth: '1980-05-01', phone }, tokens.contactReader)
    // The date of birth, which it may not read, is not matched on: the answer is as if it had not been given.
    expect(created.possibleDuplicates).toEqual([{ constituentId: known.id, reasons: ['same phone'] }])
    expect(created.duplicateWarning).toBe(
      route === 'POST /api/needs' ? 'Possible duplicate: same phone' : 'Possible duplicate of 1 constituent: same phone',
    )
    expect(JSON.stringify(created)).not.toContain(alike.id)
    const reads = await readsBy(tokens.contactReader)
    expect(reads.length - before).toBe(1)
    expect(reads[0]).toMatchObject({ recordId: known.id, recordType: 'constituent', fields: ['phone'] })
    // The admin, who reads every detail, would have seen both.
    const asAdmin = await create({ firstName: 'Ana', lastName, dateOfBirth: '1980-05-01', phone }, tokens.admin)
    expect(asAdmin.possibleDuplicates!.map((d) => d.constituentId)).toEqual(expect.arrayContaining([known.id, alike.id]))
  })
})

test("a need's warning reads whole to the admin, and not at all to staff, who may read none of what matched", async () => {
  const phone = newPhone()
  await registerConstituent({ firstName: 'One', phone })
  await registerConstituent({ firstName: 'Two', phone })
  const need = await needWith({ firstName: 'Three', phone })
  const read = async (token: string) => (await api.call<Answer>('GET', `/api/needs/${need.id}`, { token })).body.duplicateWarning
  expect(await read(tokens.admin)).toBe('Possible duplicate of 2 constituents: same phone')
  expect(await read(tokens.contactReader)).toBe('Possible duplicate: same phone')
  expect(await read(tokens.staff)).toBeUndefined()
  expect(await read(tokens.agent)).toBeUndefined()
})
