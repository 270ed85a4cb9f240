import { uniqueName } from '../../support/builders'
import { beforeAll, describe, expect, test } from 'bun:test'
import { type ConstituentFields, expectBadRequest, expectProblem, linksOf, pageOfLink, UNKNOWN_ID, withoutTexting } from './helpers'
import { api, openConstituentsServer, other, partnerA, partnerB, tokens, world } from './constituents-support'
import { type Constituent, constituentNeeds, createNeed, fullPerson, type Need, register } from './constituents-support'

// docs/constituents.md, docs/api/access.md "Permissions": a person's needs, over real HTTP. The list crosses
// partners, so what each caller sees of another partner's need is held here.
openConstituentsServer()

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
      expect(need).toEqual(withoutTexting((await api.call('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body))
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
