import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, ISO_MS, seedConstituent, UNKNOWN_ID } from './helpers'
import { api, archived, ids, openNeedsServer, other, partnerA, partnerB, tokens, world } from './needs-support'
import { createNeed, createOtherNeed, hasNoNulls, type Need } from './needs-support'

// docs/api/needs.md "Needs", docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": creating a need, over real
// HTTP. Every need enters here,
// so what it is answered with, what it may refer to and who may create one for which partner are held here.
openNeedsServer()

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
        'needsAttention',
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
    // A need is an event: its id is a UUID v7, time-ordered (docs/api/conventions.md "Identifiers").
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
