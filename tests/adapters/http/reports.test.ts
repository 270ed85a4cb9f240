import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { parseCsv } from '../../support/csv'
import { expectBadRequest, expectProblem, seedConstituent } from './helpers'

// docs/api/needs.md "Reports": the reports over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres), each
// test in an organization of its own.
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
  since: string
  until: string
}

const HOUR = 3_600_000
const DAY = 86_400_000
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
    const until = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString()
    expect(report).toEqual({
      from,
      to,
      since: `${from}T00:00:00.000Z`,
      until,
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

// docs/api/needs.md "People served", and the links of a figure (the list's createdFrom … resolvedTo) with it.
type Served = {
  from: string
  to: string
  timeZone: string
  since: string
  until: string
  people: number
  households: number
  byPartner: Array<Record<string, unknown>>
}

const servedOf = (token: string, from: string, to = from) => api.call<Served>('GET', `/api/reports/served?from=${from}&to=${to}`, { token })

/** The clock moved to the next `HH:MM` UTC still to come. */
function nextUtc(time: string): Date {
  const now = world.clock.now()
  let target = new Date(`${now.toISOString().slice(0, 10)}T${time}:00.000Z`)
  if (target <= now) target = new Date(target.getTime() + DAY)
  world.clock.advance(target.getTime() - now.getTime())
  return target
}

async function resolvedFor(token: string, partnerId: string, person?: { constituentId: string }): Promise<string> {
  const created = await api.call<{ id: string }>('POST', '/api/needs', { token, body: { partnerId, ...person } })
  expect(created.status).toBe(201)
  const resolved = await api.call('PUT', `/api/needs/${created.body.id}`, { token, body: { status: 'RESOLVED' } })
  expect(resolved.status).toBe(200)
  return created.body.id
}

describe('GET /api/reports/served', () => {
  test("counts each person and household once, in the organization's days: 23:30 in Los Angeles is that day's; its figures list their needs", async () => {
    const org = await world.otherOrganization()
    const pantry = await org.partner({ name: 'Pantry' })
    // 07:30 UTC is 23:30 or 00:30 in Los Angeles (the day before either way, by summer or winter time).
    const lateEvening = nextUtc('07:30')
    let admin = await api.tokenFor(org, 'org_admin')
    const settings = await api.call('PUT', '/api/organizations/settings', { token: admin, body: { timeZone: 'America/Los_Angeles' } })
    expect(settings.status).toBe(200)
    const ana = await seedConstituent(api, admin, { firstName: 'Ana', lastName: 'Served' })
    const bo = await seedConstituent(api, admin, { firstName: 'Bo', lastName: 'Served' })
    const localDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(lateEvening)
    const first = await resolvedFor(admin, pantry.id, ana)
    await resolvedFor(admin, pantry.id, ana)
    await resolvedFor(admin, org.defaultPartner.id, ana)
    world.clock.advance(3 * 3_600_000)
    admin = await api.tokenFor(org, 'org_admin')
    const nextDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(world.clock.now())
    await resolvedFor(admin, org.defaultPartner.id, bo)
    await resolvedFor(admin, org.defaultPartner.id)

    const { status, body } = await servedOf(admin, localDay)
    expect(status).toBe(200)
    expect(body).toMatchObject({ from: localDay, to: localDay, timeZone: 'America/Los_Angeles', people: 1, households: 1 })
    expect(body.byPartner).toEqual(
      [
        { partnerId: org.defaultPartner.id, partnerName: org.defaultPartner.name, people: 1, households: 1 },
        { partnerId: pantry.id, partnerName: 'Pantry', people: 1, households: 1 },
      ].sort((a, b) => a.partnerName.localeCompare(b.partnerName)),
    )
    expect((await servedOf(admin, localDay, nextDay)).body).toMatchObject({ people: 2, households: 2 })
    expect((await servedOf(admin, nextDay)).body).toMatchObject({ people: 1 })

    // The figure's needs: the list bounded by the period's instants.
    const listed = await api.call<Array<{ id: string }>>(
      'GET',
      `/api/needs?resolvedFrom=${body.since}&resolvedTo=${body.until}&partnerId=${pantry.id}`,
      {
        token: admin,
      },
    )
    expect(listed.body.map((n) => n.id)).toContain(first)
    expect(listed.headers.get('x-total-count')).toBe('2')
    expect(new Date(body.until).getTime() - new Date(body.since).getTime()).toBeGreaterThanOrEqual(23 * 3_600_000)
  })

  test('as CSV: a row for all partners, then one per partner; a partner role counts its own', async () => {
    const org = await world.otherOrganization()
    const pantry = await org.partner({ name: 'Pantry' })
    const admin = await api.tokenFor(org, 'org_admin')
    const ana = await seedConstituent(api, admin, { firstName: 'Ana', lastName: 'Csv' })
    await resolvedFor(admin, pantry.id, ana)
    await resolvedFor(admin, org.defaultPartner.id, ana)
    const day = world.clock.now().toISOString().slice(0, 10)

    const response = await fetch(`${api.url}/api/reports/served/export?format=csv&from=${day}&to=${day}`, {
      headers: { authorization: `Bearer ${admin}` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="served-${day}-to-${day}.csv"`)
    const [header, ...rows] = parseCsv(await response.text())
    expect(header).toEqual(['from', 'to', 'timeZone', 'partnerId', 'partnerName', 'people', 'households'])
    expect(rows).toEqual([
      [day, day, 'UTC', '', '', '1', '1'],
      ...[
        [day, day, 'UTC', org.defaultPartner.id, org.defaultPartner.name, '1', '1'],
        [day, day, 'UTC', pantry.id, 'Pantry', '1', '1'],
      ].sort((a, b) => a[4]!.localeCompare(b[4]!)),
    ])
    const agent = await api.tokenFor(org, 'partner_agent', { partnerId: pantry.id })
    expect((await servedOf(agent, day)).body).toMatchObject({ people: 1, byPartner: [{ partnerId: pantry.id }] })
  })

  test('refuses a bad period naming the field, another format, a volunteer, and a caller without a token', async () => {
    const admin = await api.tokenFor(world, 'org_admin')
    expectBadRequest(await servedOf(admin, '2026-13-01', '2026-12-31'), 'from')
    expectBadRequest(await servedOf(admin, '2026-03-02', '2026-03-01'), 'to')
    expectBadRequest(await servedOf(admin, '2025-01-01', '2026-01-02'), 'to')
    expectBadRequest(
      await api.call('GET', '/api/reports/served/export?format=xlsx&from=2026-01-01&to=2026-01-01', { token: admin }),
      'format',
    )
    const volunteer = await api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id })
    expectProblem(await servedOf(volunteer, '2026-01-01'), 403, 'Forbidden')
    expectProblem(await api.call('GET', '/api/reports/served?from=2026-01-01&to=2026-01-31'), 401, 'Unauthorized')
  })
})
