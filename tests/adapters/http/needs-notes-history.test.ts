import { describe, expect, test } from 'bun:test'
import { claimsOf, expectBadRequest, expectProblem, ISO_MS, linksOf, pageOfLink, UNKNOWN_ID } from './helpers'
import { api, createNeed, hasNoNulls, ids, openNeedsServer, partnerA, partnerB, tokens, world } from './needs-support'

// docs/api/needs.md "Needs" and docs/api/access.md "Permissions": a need's notes, interactions and history, over real HTTP. They are
// the record of what was done for someone and by whom, so they follow the need's own visibility.
openNeedsServer()

describe('POST /api/needs/{id}/notes and GET /api/needs/{id}/interactions', () => {
  const addNote = (id: string, body: unknown, token = tokens.admin) => api.call('POST', `/api/needs/${id}/notes`, { token, body })
  const interactions = (id: string, token = tokens.admin) => api.call<any[]>('GET', `/api/needs/${id}/interactions`, { token })

  test('a note is 201 with the interaction; the list shows notes oldest first', async () => {
    const need = await createNeed({ partnerId: partnerA.id })
    expect((await interactions(need.id)).body).toEqual([])

    const first = await addNote(need.id, { content: 'Called back, left a message.' })
    expect(first.status).toBe(201)
    expect(Object.keys(first.body).sort()).toEqual([
      'channel',
      'content',
      'createdAt',
      'id',
      'needId',
      'organizationId',
      'partnerId',
      'senderIdentifier',
    ])
    expect(first.body).toMatchObject({
      organizationId: world.organizationId,
      partnerId: partnerA.id,
      needId: need.id,
      channel: 'note',
      content: 'Called back, left a message.',
    })
    expect(first.body.senderIdentifier.length).toBeGreaterThan(0)
    expect(first.body.createdAt).toMatch(ISO_MS)

    world.clock.advance(1000)
    const second = await addNote(need.id, { content: 'Delivered.' }, tokens.volunteerA)
    expect(second.status).toBe(201)

    const listed = await interactions(need.id)
    expect(listed.status).toBe(200)
    expect(listed.body.map((i) => i.id)).toEqual([first.body.id, second.body.id])
    expect(listed.body[0]).toEqual(first.body)
    expect(hasNoNulls(listed.body)).toBe(true)

    // Paged like every list (docs/api/conventions.md "Lists"): a need may gather any number of messages.
    const page2 = await api.call<any[]>('GET', `/api/needs/${need.id}/interactions?page=2&limit=1`, { token: tokens.admin })
    expect(page2.body.map((i) => i.id)).toEqual([second.body.id])
    expect(page2.headers.get('x-total-count')).toBe('2')
    expect(page2.headers.get('link')).toContain('rel="first"')
    expect((await api.call('GET', `/api/needs/${need.id}/interactions?limit=101`, { token: tokens.admin })).status).toBe(400)
  })

  test.each([
    ['no content', {}, '/content'],
    ['empty content', { content: '' }, '/content'],
    ['content over 5,000 characters', { content: 'x'.repeat(5001) }, '/content'],
    ['content of the wrong type', { content: 7 }, '/content'],
    ['an unknown property', { content: 'hi', channel: 'sms' }, '/channel'],
  ])('%s is a 400 Bad request', async (_label, body, field) => {
    const need = await createNeed()
    expectBadRequest(await addNote(need.id, body), field)
  })

  test('content of exactly 5,000 characters is accepted', async () => {
    const need = await createNeed()
    expect((await addNote(need.id, { content: 'x'.repeat(5000) })).status).toBe(201)
  })

  test('an unknown need is 404 Need not found', async () => {
    expectProblem(await addNote(UNKNOWN_ID, { content: 'hello' }), 404, 'Not found')
    expectProblem(await interactions(UNKNOWN_ID), 404, 'Not found')
  })

  test("another organization's need is 404 for both, and gets no note", async () => {
    const mine = await createNeed()
    expectProblem(await addNote(mine.id, { content: 'sneaky' }, tokens.otherAdmin), 404, 'Not found')
    expectProblem(await interactions(mine.id, tokens.otherAdmin), 404, 'Not found')
    expect((await interactions(mine.id)).body).toEqual([])
  })

  test("another partner's need is 404 to partner roles for both", async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    await addNote(ofB.id, { content: 'internal' })
    for (const token of [tokens.agentA, tokens.volunteerA]) {
      expectProblem(await addNote(ofB.id, { content: 'x' }, token), 404, 'Not found')
      expectProblem(await interactions(ofB.id, token), 404, 'Not found')
    }
  })

  test('the notes of a confidential need lose their content for those who may not read it', async () => {
    const secret = await createNeed({ isConfidential: true })
    await addNote(secret.id, { content: 'private words' })
    const asStaff = await interactions(secret.id, tokens.staff)
    expect(asStaff.status).toBe(200)
    expect(asStaff.body).toHaveLength(1)
    expect('content' in asStaff.body[0]).toBe(false)
    expect((await interactions(secret.id, tokens.piiStaff)).body[0].content).toBe('private words')
  })

  test('without a token both are 401', async () => {
    expectProblem(await api.call('POST', `/api/needs/${UNKNOWN_ID}/notes`, { body: { content: 'x' } }), 401, 'Unauthorized')
    expectProblem(await api.call('GET', `/api/needs/${UNKNOWN_ID}/interactions`), 401, 'Unauthorized')
  })
})

describe('GET /api/needs/{id}/history', () => {
  type Change = { id: string; field: string; from?: string; to?: string; changedBy?: string; changedAt: string }
  const history = (id: string, token = tokens.admin, query = '') => api.call<Change[]>('GET', `/api/needs/${id}/history${query}`, { token })

  test('lists every change of status, assignee, partner, confidentiality and due date: who, when, from, to; oldest first', async () => {
    const need = await createNeed({ partnerId: partnerA.id })
    const admin = claimsOf(tokens.admin!).sub
    const agent = claimsOf(tokens.agentA!).sub
    world.clock.advance(60_000)
    expect(
      (await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.agentA, body: { status: 'IN_PROGRESS', assignedTo: ids.assignee } }))
        .status,
    ).toBe(200)
    world.clock.advance(60_000)
    expect(
      (await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.admin, body: { partnerId: partnerB.id, isConfidential: true } }))
        .status,
    ).toBe(200)

    const response = await history(need.id)
    expect(response.status).toBe(200)
    expect(response.body.map(({ id: _id, changedAt: _at, ...change }) => change)).toEqual([
      { field: 'status', to: 'NEW', changedBy: admin },
      { field: 'status', from: 'NEW', to: 'IN_PROGRESS', changedBy: agent },
      { field: 'assignedTo', to: ids.assignee, changedBy: agent },
      { field: 'partnerId', from: partnerA.id, to: partnerB.id, changedBy: admin },
      { field: 'isConfidential', from: 'false', to: 'true', changedBy: admin },
      // The move recomputed the due date from the new partner's SLA.
      {
        field: 'dueDate',
        from: need.dueDate,
        to: new Date(Date.parse(need.createdAt) + partnerB.slaHours * 3_600_000).toISOString(),
        changedBy: admin,
      },
    ])
    for (const change of response.body) expect(change.changedAt).toMatch(ISO_MS)
    const times = response.body.map((c) => Date.parse(c.changedAt))
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[1]! - times[0]!).toBe(60_000)
    expect(response.headers.get('x-total-count')).toBe('6')
  })

  test('is paged like every list', async () => {
    const need = await createNeed()
    for (const status of ['IN_PROGRESS', 'PENDING_CLIENT', 'ESCALATED', 'RESOLVED']) {
      expect((await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.admin, body: { status } })).status).toBe(200)
    }
    const second = await history(need.id, tokens.admin, '?page=2&limit=2')
    expect(second.body.map((c) => c.to)).toEqual(['PENDING_CLIENT', 'ESCALATED'])
    expect(second.headers.get('x-total-count')).toBe('5')
    const links = linksOf(second)
    expect([pageOfLink(links.prev), pageOfLink(links.next), pageOfLink(links.last)]).toEqual([
      { page: 1, limit: 2 },
      { page: 3, limit: 2 },
      { page: 3, limit: 2 },
    ])
    expectBadRequest(await history(need.id, tokens.admin, '?limit=101'), 'limit')
  })

  test('is seen by whoever sees the need: 404 for another organization, and for another partner to partner roles', async () => {
    const ofB = await createNeed({ partnerId: partnerB.id })
    for (const token of [tokens.otherAdmin, tokens.agentA, tokens.volunteerA]) expectProblem(await history(ofB.id, token), 404, 'Not found')
    const ofA = await createNeed({ partnerId: partnerA.id })
    expect((await history(ofA.id, tokens.volunteerA)).status).toBe(200)
    expectProblem(await history(UNKNOWN_ID), 404, 'Not found')
    expectProblem(await api.call('GET', `/api/needs/${ofA.id}/history`), 401, 'Unauthorized')
  })
})
