import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { expectProblem, UNKNOWN_ID } from './helpers'

// docs/constituents.md "Constituents and households": GET /api/constituents/{id}/household over real HTTP.
type Person = { id: string; householdId: string; firstName?: string; email?: string }

let api: TestServer
let admin: string
let ada: Person
let byron: Person

beforeAll(async () => {
  api = await startTestServer()
  admin = await api.tokenFor(api.world, 'org_admin')
  const create = async (body: Record<string, string>) => (await api.call<Person>('POST', '/api/constituents', { token: admin, body })).body
  ada = await create({ firstName: 'Ada', lastName: 'Household', email: 'ada.household@example.org' })
  byron = await create({ firstName: 'Byron', lastName: 'Household', householdId: ada.householdId })
  await create({ firstName: 'Someone', lastName: 'Else' })
})
afterAll(() => api.stop())

const household = (id: string, token = admin) => api.call<Person[]>('GET', `/api/constituents/${id}/household`, { token })

describe('GET /api/constituents/{id}/household', () => {
  test("answers the household's people, the constituent among them", async () => {
    for (const id of [ada.id, byron.id]) {
      const response = await household(id)
      expect(response.status).toBe(200)
      expect(response.body.map((p) => p.firstName).sort()).toEqual(['Ada', 'Byron'])
      expect(response.body.find((p) => p.id === ada.id)).toEqual(
        (await api.call<Person>('GET', `/api/constituents/${ada.id}`, { token: admin })).body,
      )
    }
  })

  test('redacted as reading each one is: an agent sees no email', async () => {
    const agent = await api.tokenFor(api.world, 'partner_agent', { partnerId: api.world.defaultPartner.id })
    const response = await household(ada.id, agent)
    expect(response.status).toBe(200)
    expect(response.body.map((p) => p.firstName).sort()).toEqual(['Ada', 'Byron'])
    for (const person of response.body) expect(person).not.toHaveProperty('email')
  })

  test("a volunteer is 403; an unknown or another organization's constituent 404; no token 401", async () => {
    const volunteer = await api.tokenFor(api.world, 'volunteer', { partnerId: api.world.defaultPartner.id })
    expectProblem(await household(ada.id, volunteer), 403, 'Forbidden')
    expectProblem(await household(UNKNOWN_ID), 404, 'Not found')
    const other = await api.world.otherOrganization()
    expectProblem(await household(ada.id, await api.tokenFor(other, 'org_admin')), 404, 'Not found')
    expect((await api.call('GET', `/api/constituents/${ada.id}/household`)).status).toBe(401)
  })
})
