import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectBadRequest, expectProblem } from './helpers'

// docs/api/needs.md "Reports": the needs report over real HTTP, each test in an organization of its own.
type Report = {
  from: string
  to: string
  opened: number
  resolved: number
  open: number
  overdue: number
  byStatus: Record<string, number>
  byPartner: Array<Record<string, unknown>>
  texts: Record<string, number>
  byWeek: Array<{ weekStart: string; opened: number; resolved: number }>
}

const HOUR = 3_600_000
let api: TestServer
let world: World

beforeAll(async () => {
  api = await startTestServer()
  world = api.world
})
afterAll(() => api.stop())

const dayOf = (at: Date) => at.toISOString().slice(0, 10)

async function created(token: string, partnerId: string, body: Record<string, unknown> = {}): Promise<{ id: string }> {
  const response = await api.call<{ id: string }>('POST', '/api/needs', { token, body: { partnerId, ...body } })
  expect(response.status).toBe(201)
  return response.body
}

const reportOf = (token: string, from: string, to: string) => api.call<Report>('GET', `/api/reports/needs?from=${from}&to=${to}`, { token })

describe('GET /api/reports/needs', () => {
  test("answers the organization's exact figures: opened and resolved in the period, open and overdue now", async () => {
    const org = await world.otherOrganization()
    const pantry = await org.partner({ name: 'Pantry', slaHours: 1000 })
    const start = world.clock.now()
    const before = await api.tokenFor(org, 'org_admin')
    const [a, b] = [await created(before, org.defaultPartner.id), await created(before, org.defaultPartner.id)]
    await created(before, org.defaultPartner.id, { status: 'ESCALATED' })
    await created(before, pantry.id, { dueDate: new Date(start.getTime() - HOUR).toISOString() })
    world.clock.advance(5 * HOUR)
    const admin = await api.tokenFor(org, 'org_admin')
    for (const need of [a, b]) {
      expect((await api.call('PUT', `/api/needs/${need.id}`, { token: admin, body: { status: 'RESOLVED' } })).status).toBe(200)
    }
    const from = dayOf(start)
    const to = dayOf(world.clock.now())

    const response = await reportOf(admin, from, to)
    expect(response.status).toBe(200)
    const { byWeek, ...report } = response.body
    expect(report).toEqual({
      from,
      to,
      opened: 4,
      resolved: 2,
      open: 2,
      overdue: 1,
      byStatus: { NEW: 1, IN_PROGRESS: 0, PENDING_INTERNAL: 0, PENDING_CLIENT: 0, RESOLVED: 2, ESCALATED: 1 },
      byPartner: [
        {
          partnerId: org.defaultPartner.id,
          partnerName: org.defaultPartner.name,
          opened: 3,
          resolved: 2,
          open: 1,
          overdue: 0,
          medianHoursToResolve: 5,
        },
        { partnerId: pantry.id, partnerName: 'Pantry', opened: 1, resolved: 0, open: 1, overdue: 1, medianHoursToResolve: null },
      ],
      // No text was sent or received (their counts: sms-figures.test.ts).
      texts: { received: 0, sent: 0, delivered: 0, failed: 0 },
    })
    expect(byWeek.reduce((sum, w) => sum + w.opened, 0)).toBe(4)
    expect(byWeek.reduce((sum, w) => sum + w.resolved, 0)).toBe(2)
    expect(byWeek.every((w) => new Date(`${w.weekStart}T00:00:00Z`).getUTCDay() === 1 && w.weekStart <= to)).toBe(true)
  })

  test("a partner role reads its own partner's figures only", async () => {
    const org = await world.otherOrganization()
    const pantry = await org.partner({ name: 'Pantry' })
    const admin = await api.tokenFor(org, 'org_admin')
    await created(admin, org.defaultPartner.id)
    await created(admin, pantry.id)
    const agent = await api.tokenFor(org, 'partner_agent', { partnerId: pantry.id })
    const today = dayOf(world.clock.now())

    const { body } = await reportOf(agent, today, today)
    expect(body).toMatchObject({ opened: 1, open: 1, byStatus: { NEW: 1 } })
    expect(body.byPartner.map((p) => p.partnerId)).toEqual([pantry.id])
  })

  test('refuses a period that is not whole days in order, at most 366 of them, naming the field', async () => {
    const admin = await api.tokenFor(world, 'org_admin')
    expectBadRequest(await reportOf(admin, '2026-13-01', '2026-12-31'), 'from')
    expectBadRequest(await reportOf(admin, '2026-02-30', '2026-03-01'), 'from')
    expectBadRequest(await reportOf(admin, '2026-03-02', '2026-03-01'), 'to')
    expectBadRequest(await reportOf(admin, '2025-01-01', '2026-01-02'), 'to')
    expectBadRequest(await api.call('GET', '/api/reports/needs?from=2026-01-01', { token: admin }), 'to')
  })

  test('needs a token', async () => {
    expectProblem(await api.call('GET', '/api/reports/needs?from=2026-01-01&to=2026-01-31'), 401, 'Unauthorized')
  })
})
