import { describe, expect, test } from 'bun:test'
import { expectBadRequest, expectProblem } from './helpers'
import { api, openMembersServer, tokens } from './members-support'

// docs/api/access.md "Saved views": a member's named filters of the inbox, over real HTTP, kept on the server so
// they follow the member from device to device, and seen by no one else.
openMembersServer()

interface View {
  id: string
  name: string
  filters: Record<string, unknown>
  createdAt: string
  updatedAt: string
}
const PATH = '/api/profile/views'
const create = (token: string | undefined, body: unknown) => api.call<View>('POST', PATH, { token, body })
const listOf = async (token: string | undefined) => (await api.call<View[]>('GET', `${PATH}?limit=100`, { token })).body

describe('/api/profile/views', () => {
  test('saves the filters under a name, lists them oldest first, renames, replaces and deletes', async () => {
    const filters = {
      status: ['NEW', 'IN_PROGRESS'],
      overdue: true,
      q: 'rent',
      sort: '-dueDate',
      dueBefore: '2026-12-31T00:00:00.000Z',
      resolvedFrom: '2026-11-01T00:00:00.000Z',
    }
    const created = await create(tokens.agentA, { name: ' Overdue rent ', filters })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Overdue rent', filters })
    for (const hidden of ['organizationId', 'memberId']) expect(created.body).not.toHaveProperty(hidden)
    const second = (await create(tokens.agentA, { name: 'Everything', filters: {} })).body
    const listed = await api.call<View[]>('GET', PATH, { token: tokens.agentA })
    expect(listed.body.map((v) => v.id)).toEqual([created.body.id, second.id])
    expect(listed.headers.get('x-total-count')).toBe('2')

    const renamed = await api.call<View>('PUT', `${PATH}/${second.id}`, { token: tokens.agentA, body: { name: 'New only' } })
    expect(renamed.body).toMatchObject({ name: 'New only', filters: {} })
    const replaced = await api.call<View>('PUT', `${PATH}/${second.id}`, { token: tokens.agentA, body: { filters: { status: ['NEW'] } } })
    expect(replaced.body).toMatchObject({ name: 'New only', filters: { status: ['NEW'] } })

    expect((await api.call('DELETE', `${PATH}/${second.id}`, { token: tokens.agentA })).status).toBe(204)
    expect((await listOf(tokens.agentA)).map((v) => v.id)).toEqual([created.body.id])
    expectProblem(await api.call('DELETE', `${PATH}/${second.id}`, { token: tokens.agentA }), 404, 'Not found')
  })

  test("another member's view is not seen nor changed, in this organization or another: 404 as none", async () => {
    const view = (await create(tokens.staff, { name: 'Staff only', filters: {} })).body
    for (const token of [tokens.admin, tokens.otherAdmin]) {
      expect((await listOf(token)).map((v) => v.id)).not.toContain(view.id)
      expectProblem(await api.call('PUT', `${PATH}/${view.id}`, { token, body: { name: 'Mine now' } }), 404, 'Not found')
      expectProblem(await api.call('DELETE', `${PATH}/${view.id}`, { token }), 404, 'Not found')
    }
    expect((await listOf(tokens.staff)).find((v) => v.id === view.id)?.name).toBe('Staff only')
  })

  test('a name the member has already is 409, on creation and on a rename', async () => {
    await create(tokens.partnerAdminA, { name: 'Mine', filters: {} })
    const other = (await create(tokens.partnerAdminA, { name: 'Other', filters: {} })).body
    expectProblem(await create(tokens.partnerAdminA, { name: 'Mine', filters: {} }), 409, 'Conflict')
    expectProblem(await api.call('PUT', `${PATH}/${other.id}`, { token: tokens.partnerAdminA, body: { name: 'Mine' } }), 409, 'Conflict')
    expect((await create(tokens.volunteerA, { name: 'Mine', filters: {} })).status).toBe(201)
  })

  test('refuses a name of 0 or over 60 characters and filters the needs list does not take', async () => {
    expectBadRequest(await create(tokens.admin, { name: '', filters: {} }), '/name')
    expectBadRequest(await create(tokens.admin, { name: 'x'.repeat(61), filters: {} }), '/name')
    expectBadRequest(await create(tokens.admin, { name: 'Bad', filters: { colour: 'red' } }), '/filters')
    expectBadRequest(await create(tokens.admin, { name: 'Bad', filters: { sort: 'name' } }), '/filters/sort')
    expectBadRequest(await create(tokens.admin, { name: 'Bad', filters: { q: 'x'.repeat(201) } }), '/filters/q')
    expectBadRequest(await create(tokens.admin, { name: 'Bad', filters: { status: [] } }), '/filters/status')
    expectBadRequest(await create(tokens.admin, { name: 'Bad' }), '/filters')
  })

  test('a member keeps at most 50 views, made at once or not: the 51st is 409', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, n) => create(tokens.agentB, { name: `View ${n}`, filters: {} })))
    expectProblem(await create(tokens.agentB, { name: 'One more', filters: {} }), 409, 'Conflict')
  })
})
