import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem, ISO_MS, seedConstituent, UNKNOWN_ID } from './helpers'
import { api, archived, ids, openNeedsServer, other, partnerA, partnerB, tokens, world } from './needs-support'
import { createNeed, createOtherNeed, type Need } from './needs-support'

// docs/api/needs.md "Needs", docs/api/conventions.md "Errors" and docs/api/access.md "Permissions": reading and updating one
// need, by its id or its reference
// number, over real HTTP. People quote the reference number, so every route that names a need takes it too.
openNeedsServer()

/** What GET answers beside the need of one without a constituent (docs/api/needs.md "Texting a need"). */
const NO_PHONE = { canText: false, cannotTextReason: 'no-phone' }

describe('GET /api/needs/{id}', () => {
  test('reads a need by id and by its reference number, in any case', async () => {
    const need = await createNeed({ customFields: { a: 1 } })
    const byId = await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })
    expect(byId.status).toBe(200)
    // A need without a constituent has no one to text.
    expect(byId.body).toEqual({ ...need, ...NO_PHONE })
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
    expect((await api.call('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body).toEqual({ ...response.body, ...NO_PHONE })
  })

  test('assignedTo null unassigns the need, and its history says so', async () => {
    const need = await createNeed({ assignedTo: ids.assignee })
    world.clock.advance(1000)
    const response = await put(need.id, { assignedTo: null })
    expect(response.status).toBe(200)
    expect(response.body).not.toHaveProperty('assignedTo')
    expect((await api.call('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body).toEqual({ ...response.body, ...NO_PHONE })
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
    expect((await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body).toEqual({ ...need, ...NO_PHONE })
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
