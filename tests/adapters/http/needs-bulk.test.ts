import { describe, expect, test } from 'bun:test'
import { expectBadRequest, UNKNOWN_ID } from './helpers'
import { api, createNeed, createOtherNeed, ids, openNeedsServer, partnerA, partnerB, tokens, world, type Need } from './needs-support'

// docs/api/needs.md "Changing many needs at once": one change made to many needs over real HTTP, each as
// PUT /api/needs/{id} would make it alone, with a result per need.
openNeedsServer()

interface Result {
  id: string
  status: number
  problem?: { type: string; title: string; status: number; detail: string; errors?: unknown[] }
}
const bulk = async (body: unknown, token = tokens.admin!) => api.call<{ results: Result[] }>('POST', '/api/needs/bulk', { token, body })
const read = async (need: Need) => (await api.call<Need>('GET', `/api/needs/${need.id}`, { token: tokens.admin })).body

describe('POST /api/needs/bulk', () => {
  test('assigns each need, by id or reference number, and answers 200 for each in order', async () => {
    const [first, second, third] = await Promise.all([createNeed(), createNeed(), createNeed()])
    const response = await bulk({ ids: [first!.id, second!.referenceNumber.toLowerCase(), third!.id], set: { assignedTo: ids.assignee } })
    expect(response.status).toBe(200)
    expect(response.body.results).toEqual([
      { id: first!.id, status: 200 },
      { id: second!.referenceNumber.toLowerCase(), status: 200 },
      { id: third!.id, status: 200 },
    ])
    for (const need of [first!, second!, third!]) expect((await read(need)).assignedTo).toBe(ids.assignee)
  })

  test("each need's refusal is the problem the single update answers, and stops none of the others", async () => {
    const resolved = await createNeed({ status: 'RESOLVED' })
    const open = await createNeed()
    const theirs = await createOtherNeed()
    const body = { ids: [resolved.id, UNKNOWN_ID, theirs.id, 'nonsense', open.id], set: { status: 'ESCALATED' } }
    const { status, body: answer } = await bulk(body)
    expect(status).toBe(200)
    expect(answer.results.map((r) => [r.id, r.status])).toEqual([
      [resolved.id, 409],
      [UNKNOWN_ID, 404],
      [theirs.id, 404],
      ['nonsense', 404],
      [open.id, 200],
    ])
    const single = await api.call('PUT', `/api/needs/${resolved.id}`, { token: tokens.admin, body: { status: 'ESCALATED' } })
    expect(answer.results[0]!.problem).toEqual(single.body as never)
    // Another organization's need is not found, in the same words as one that does not exist.
    expect(answer.results[2]!.problem).toEqual(answer.results[1]!.problem!)
    expect((await read(open)).status).toBe('ESCALATED')
    expect((await read(resolved)).status).toBe('RESOLVED')
  })

  test("a partner role's result for another partner's need is 404, as for none", async () => {
    const [ofA, ofB] = await Promise.all([createNeed({ partnerId: partnerA.id }), createNeed({ partnerId: partnerB.id })])
    const { body } = await bulk({ ids: [ofA.id, ofB.id], set: { status: 'IN_PROGRESS' } }, tokens.processorVolunteerA)
    expect(body.results.map((r) => r.status)).toEqual([200, 404])
    expect(body.results[1]!.problem!.title).toBe('Not found')
    expect((await read(ofB)).status).toBe('NEW')
  })

  test("another organization's member as assignee is each need's 400, as alone; a need moves partner with its history", async () => {
    const need = await createNeed()
    const { body } = await bulk({ ids: [need.id], set: { assignedTo: ids.otherMember } })
    const single = await api.call('PUT', `/api/needs/${need.id}`, { token: tokens.admin, body: { assignedTo: ids.otherMember } })
    expect(body.results[0]).toEqual({ id: need.id, status: 400, problem: single.body as never })
    await bulk({ ids: [need.id], set: { partnerId: partnerB.id } })
    expect((await read(need)).partnerId).toBe(partnerB.id)
    const history = await api.call<Array<{ field: string }>>('GET', `/api/needs/${need.id}/history`, { token: tokens.admin })
    expect(history.body.map((change) => change.field)).toContain('partnerId')
  })

  test('each need is audited as its own update', async () => {
    const need = await createNeed()
    await bulk({ ids: [need.id], set: { status: 'IN_PROGRESS' } })
    const events = await world.repositories.auditEvents.list(world.organizationId, { action: 'update' }, { page: 1, limit: 100 })
    expect(events.items.some((e) => e.recordType === 'need' && e.recordId === need.id)).toBe(true)
  })

  test('an empty set, no ids, more than 100 ids or an id twice is a 400 for the whole request, and changes nothing', async () => {
    const need = await createNeed()
    expectBadRequest(await bulk({ ids: [need.id], set: {} }), '/set')
    expectBadRequest(await bulk({ ids: [], set: { status: 'IN_PROGRESS' } }), '/ids')
    expectBadRequest(await bulk({ ids: Array.from({ length: 101 }, () => crypto.randomUUID()), set: { status: 'IN_PROGRESS' } }), '/ids')
    expectBadRequest(await bulk({ ids: [need.id, need.id], set: { status: 'IN_PROGRESS' } }), '/ids')
    expectBadRequest(await bulk({ ids: [need.id], set: { status: 'IN_PROGRESS', customFields: {} } }), '/set')
    expect((await read(need)).status).toBe('NEW')
  })

  test('a role without needs:update is 403 for the whole request', async () => {
    const need = await createNeed()
    expect((await bulk({ ids: [need.id], set: { status: 'IN_PROGRESS' } }, tokens.volunteerA)).status).toBe(403)
  })
})
