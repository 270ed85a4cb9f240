import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { claimsOf, expectBadRequest } from './helpers'

// POST /api/constituents/duplicate-check (docs/constituents.md "Duplicate detection"): who a person may be
// already, before registering them, over real HTTP on SQLite (and PostgreSQL with TEST_DATABASE=postgres).
type Check = {
  possibleDuplicates: Array<{ constituentId: string; firstName?: string; lastName?: string; reasons: string[] }>
  duplicateWarning?: string
}
type AuditEvent = { recordId: string; fields?: string[]; requestId?: string }

let api: TestServer
let world: World
let other: World
const tokens = { admin: '', staff: '', contactReader: '', otherAdmin: '' }

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  other = await world.otherOrganization()
  const [admin, staff, contactReader, otherAdmin] = await Promise.all([
    api.tokenFor(world, 'org_admin'),
    api.tokenFor(world, 'staff'),
    api.tokenFor(world, 'staff', { profiles: ['email_phone_communicator'] }),
    api.tokenFor(other, 'org_admin'),
  ])
  Object.assign(tokens, { admin, staff, contactReader, otherAdmin })
})
afterAll(() => api.stop())

let phones = 0
const newPhone = () => `+1555${String(7_000_000 + ++phones).padStart(7, '0')}`

async function registered(fields: Record<string, unknown>, token = tokens.admin): Promise<string> {
  const response = await api.call<{ id: string }>('POST', '/api/constituents', { token, body: fields })
  expect(response.status).toBe(201)
  return response.body.id
}
const check = (body: unknown, token = tokens.admin) => api.call<Check>('POST', '/api/constituents/duplicate-check', { token, body })
async function checked(body: Record<string, unknown>, token = tokens.admin): Promise<Check> {
  const response = await check(body, token)
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 200 })
  return response.body
}
async function eventsOf(query: string): Promise<AuditEvent[]> {
  const response = await api.call<AuditEvent[]>('GET', `/api/audit-events?${query}&limit=100`, { token: tokens.admin })
  expect(response.status).toBe(200)
  return response.body
}

describe('POST /api/constituents/duplicate-check', () => {
  test('names who shares the details, by name and reason, and records that read with the request id', async () => {
    const phone = newPhone()
    const known = await registered({ firstName: 'Rosa', lastName: 'Parks', phone })
    const response = await check({ firstName: 'R', lastName: 'P', phone }, tokens.contactReader)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      possibleDuplicates: [{ constituentId: known, firstName: 'Rosa', lastName: 'Parks', reasons: ['same phone'] }],
      duplicateWarning: 'Possible duplicate of 1 constituent: same phone',
    })
    const reads = await eventsOf(`action=read&memberId=${claimsOf(tokens.contactReader).sub}&recordType=constituent&recordId=${known}`)
    expect(reads).toEqual([
      expect.objectContaining({ recordId: known, fields: ['phone'], requestId: response.headers.get('x-request-id') }),
    ])
  })

  test('registers no one and opens no household match', async () => {
    const phone = newPhone()
    const known = await registered({ firstName: 'Only', lastName: 'Once', phone })
    await checked({ firstName: 'Only', lastName: 'Twice', phone })
    const search = await api.call<unknown[]>('GET', '/api/constituents?query=Only%20Twice', { token: tokens.admin })
    expect(search.body).toEqual([])
    const matches = await api.call<Array<{ constituentId: string; candidateConstituentId: string }>>(
      'GET',
      '/api/household-matches?limit=100',
      {
        token: tokens.admin,
      },
    )
    expect(matches.body.filter((m) => m.constituentId === known || m.candidateConstituentId === known)).toEqual([])
  })

  test('staff, who may not read phones, get the same answer whether or not the phone is on file, and read no one', async () => {
    const phone = newPhone()
    const known = await registered({ firstName: 'Hidden', phone })
    const onFile = await checked({ firstName: 'x', phone }, tokens.staff)
    const notOnFile = await checked({ firstName: 'x', phone: newPhone() }, tokens.staff)
    expect(onFile).toEqual({ possibleDuplicates: [] })
    expect(notOnFile).toEqual(onFile)
    expect(JSON.stringify(onFile)).not.toContain(known)
    expect(await eventsOf(`action=read&memberId=${claimsOf(tokens.staff).sub}`)).toEqual([])
  })

  test('guessing a date of birth as a member who may not read it tells nothing; the admin, who may, is told', async () => {
    const lastName = `Guess${randomUUID().slice(0, 8)}`
    const known = await registered({ firstName: 'Rosa', lastName, dateOfBirth: '1980-05-17', email: `${lastName}@example.org` })
    const days = Array.from({ length: 31 }, (_, day) => `1980-05-${String(day + 1).padStart(2, '0')}`)
    for (const dateOfBirth of days) {
      expect({ dateOfBirth, answer: await checked({ firstName: 'Rosa', lastName, dateOfBirth }, tokens.contactReader) }).toEqual({
        dateOfBirth,
        answer: { possibleDuplicates: [] },
      })
    }
    expect(await eventsOf(`action=read&recordType=constituent&recordId=${known}`)).toEqual([])
    expect(await checked({ firstName: 'Rosa', lastName, dateOfBirth: '1980-05-17' })).toEqual({
      possibleDuplicates: [{ constituentId: known, firstName: 'Rosa', lastName, reasons: ['same name and date of birth'] }],
      duplicateWarning: 'Possible duplicate of 1 constituent: same name and date of birth',
    })
  })

  test("never names another organization's people", async () => {
    const phone = newPhone()
    await registered({ firstName: 'Elsewhere', phone }, tokens.otherAdmin)
    expect(await checked({ phone })).toEqual({ possibleDuplicates: [] })
  })

  test('bad details are 400 naming each field; unknown fields too; a volunteer is 403; no token 401', async () => {
    expectBadRequest(await check({ phone: '555-1234' }), '/phone')
    expectBadRequest(await check({ dateOfBirth: '2023-02-29' }), '/dateOfBirth')
    expectBadRequest(await check({ householdId: world.defaultPartner.id }))
    const volunteer = await api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id })
    expect((await check({ firstName: 'Ana' }, volunteer)).status).toBe(403)
    expect((await api.call('POST', '/api/constituents/duplicate-check', { body: { firstName: 'Ana' } })).status).toBe(401)
  })
})
