import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { parseCsv } from '../../support/csv'
import { expectBadRequest } from './helpers'

// docs/api/needs.md "Needs": due dates set by hand, and the lists of open needs by due date, over real HTTP.
type Need = { id: string; referenceNumber: string; partnerId: string; createdAt: string; dueDate?: string; dueDateSetByHand: boolean }

const HOUR = 3_600_000
let api: TestServer
let world: World
let admin: string

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
  admin = await api.tokenFor(world, 'org_admin')
})
afterAll(() => api.stop())

const hoursFromNow = (hours: number) => new Date(world.clock.now().getTime() + hours * HOUR).toISOString()

async function created(body: Record<string, unknown>, token = admin): Promise<Need> {
  const response = await api.call<Need>('POST', '/api/needs', { token, body: { partnerId: world.defaultPartner.id, ...body } })
  expect(response.status).toBe(201)
  return response.body
}

const refsOf = async (query: string, token = admin) => {
  const response = await api.call<Need[]>('GET', `/api/needs?${query}&limit=100`, { token })
  expect(response.status).toBe(200)
  return { refs: response.body.map((n) => n.referenceNumber), total: Number(response.headers.get('x-total-count')) }
}

describe('due dates', () => {
  test('set by hand on creation and update, kept through a move, back to the SLA with null, each change in the history', async () => {
    const fast = await world.partner({ slaHours: 2 })
    const byHand = hoursFromNow(500)
    const need = await created({ dueDate: byHand })
    expect(need).toMatchObject({ dueDate: byHand, dueDateSetByHand: true })

    const moved = await api.call<Need>('PUT', `/api/needs/${need.id}`, { token: admin, body: { partnerId: fast.id } })
    expect(moved.body).toMatchObject({ partnerId: fast.id, dueDate: byHand, dueDateSetByHand: true })
    const reset = await api.call<Need>('PUT', `/api/needs/${need.id}`, { token: admin, body: { dueDate: null } })
    const sla = new Date(new Date(need.createdAt).getTime() + 2 * HOUR).toISOString()
    expect(reset.body).toMatchObject({ dueDate: sla, dueDateSetByHand: false })
    expect((await api.call<Need>('GET', `/api/needs/${need.id}`, { token: admin })).body).toMatchObject({ dueDate: sla })

    const history = await api.call<Array<{ field: string; from?: string; to?: string }>>('GET', `/api/needs/${need.id}/history`, {
      token: admin,
    })
    expect(history.body.filter((c) => c.field === 'dueDate').map(({ from, to }) => ({ from, to }))).toEqual([{ from: byHand, to: sla }])
  })

  test('refuses a due date that is no date and time, naming it', async () => {
    expectBadRequest(
      await api.call('POST', '/api/needs', { token: admin, body: { partnerId: world.defaultPartner.id, dueDate: 'soon' } }),
      '/dueDate',
    )
    const need = await created({})
    expectBadRequest(await api.call('PUT', `/api/needs/${need.id}`, { token: admin, body: { dueDate: 42 } }), '/dueDate')
  })
})

describe('GET /api/needs by due date', () => {
  test('overdue=true lists exactly the open needs past due now, dueBefore those due before a time, soonest due first, with the other filters', async () => {
    const partner = await world.partner({ slaHours: 1000 })
    const inPartner = (body: Record<string, unknown>) => created({ partnerId: partner.id, ...body })
    const late = await inPartner({ dueDate: hoursFromNow(-2) })
    await inPartner({ dueDate: hoursFromNow(-2), status: 'RESOLVED' })
    const escalatedLate = await inPartner({ dueDate: hoursFromNow(-1), status: 'ESCALATED' })
    const soon = await inPartner({ dueDate: hoursFromNow(3) })
    await inPartner({})

    const ofPartner = `partnerId=${partner.id}`
    expect(await refsOf(`${ofPartner}&overdue=true`)).toEqual({ refs: [late.referenceNumber, escalatedLate.referenceNumber], total: 2 })
    expect(await refsOf(`${ofPartner}&overdue=true&status=NEW`)).toEqual({ refs: [late.referenceNumber], total: 1 })
    const inFourHours = encodeURIComponent(hoursFromNow(4))
    expect(await refsOf(`${ofPartner}&dueBefore=${inFourHours}`)).toEqual({
      refs: [late.referenceNumber, escalatedLate.referenceNumber, soon.referenceNumber],
      total: 3,
    })
    expect((await refsOf(`${ofPartner}&overdue=false`)).total).toBe(5)

    const agent = await api.tokenFor(world, 'partner_agent', { partnerId: world.defaultPartner.id })
    expect(await refsOf('overdue=true', agent)).toEqual({ refs: [], total: 0 })
  })

  test('the export takes the same filters: every overdue need of a partner, newest first as every export', async () => {
    const partner = await world.partner({ slaHours: 1000 })
    const late = await created({ partnerId: partner.id, dueDate: hoursFromNow(-3) })
    const later = await created({ partnerId: partner.id, dueDate: hoursFromNow(-5) })
    await created({ partnerId: partner.id, dueDate: hoursFromNow(5) })
    const response = await fetch(`${api.url}/api/needs/export?format=csv&overdue=true&partnerId=${partner.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    })
    expect(response.status).toBe(200)
    const [header, ...rows] = parseCsv(await response.text())
    const reference = header!.indexOf('referenceNumber')
    expect(rows.map((row) => row[reference])).toEqual([later.referenceNumber, late.referenceNumber])
  })

  test('refuses a dueBefore that is no date and time, and an overdue that is no boolean', async () => {
    expectBadRequest(await api.call('GET', '/api/needs?dueBefore=tomorrow', { token: admin }), 'dueBefore')
    expectBadRequest(await api.call('GET', '/api/needs?overdue=maybe', { token: admin }), 'overdue')
  })
})
