import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import { closedPort, postForm } from './helpers'

// docs/observability.md "Metrics": needs opened by channel and resolved, notifications sent and failed, read
// through GET /metrics. The worker stays off: the test sends the outbox itself.
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789'

let api: TestServer
let admin: string
beforeAll(async () => {
  api = await startTestServer({ METRICS_TOKEN, SERVE_RUNS_WORKER: 'false' })
  admin = await api.tokenFor(api.world, 'org_admin')
})
afterAll(() => api.stop())

/** Every sample of a scrape by its name and labels, as written. */
async function scrape(): Promise<Record<string, number>> {
  const response = await api.call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  expect(response.status).toBe(200)
  const samples = String(response.body)
    .split('\n')
    .filter((line) => line.startsWith('intake_needs_') || line.startsWith('intake_notification'))
    .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))] as const)
  return Object.fromEntries(samples)
}

/** What each sample rose by between two scrapes. */
const rise = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).map((sample) => [sample, after[sample]! - (before[sample] ?? 0)]))

const sendOutbox = async () => {
  while ((await api.world.useCases.operations.dispatchOutbox.runOnce()) > 0);
}

describe('business metrics', () => {
  test('count needs opened by channel (staff, public API, form) and each resolution, none for a refused request', async () => {
    const slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
    const before = await scrape()
    const staff = await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id } })
    expect(staff.status).toBe(201)
    expect(
      (await api.call('POST', '/api/needs', { token: admin, body: { partnerId: api.world.defaultPartner.id, status: 'RESOLVED' } })).status,
    ).toBe(201)
    expect((await api.call('POST', '/api/needs', { token: admin, body: { partnerId: crypto.randomUUID() } })).status).toBe(400)
    const publicNeed = { organizationId: api.world.organizationId, description: 'Groceries for a family of four' }
    expect((await api.call('POST', '/api/needs/public', { body: publicNeed })).status).toBe(201)
    expect((await postForm(api, `/intake/${slug}`, { description: 'Rent help' }, { 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    const update = (status: string) => api.call('PUT', `/api/needs/${staff.body.id}`, { token: admin, body: { status } })
    for (const status of ['RESOLVED', 'RESOLVED', 'IN_PROGRESS', 'RESOLVED']) expect((await update(status)).status).toBe(200)

    expect(rise(before, await scrape())).toMatchObject({
      'intake_needs_opened_total{channel="staff"}': 2,
      'intake_needs_opened_total{channel="public_api"}': 1,
      'intake_needs_opened_total{channel="form"}': 1,
      intake_needs_resolved_total: 3,
    })
  })

  test('count the notifications the provider took, and the tries that failed', async () => {
    await sendOutbox()
    const before = await scrape()
    const assignee = await api.world.member('staff')
    const assign = (token: string, partnerId: string) =>
      api.call('POST', '/api/needs', { token, body: { partnerId, assignedTo: assignee.memberId } }).then((r) => r.status)
    expect(await assign(admin, api.world.defaultPartner.id)).toBe(201)
    await sendOutbox()
    expect(rise(before, await scrape())).toMatchObject({ intake_notifications_sent_total: 1 })

    // Another organization whose mail server cannot be reached: the try fails, and will be made again.
    const other = await api.world.otherOrganization()
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const settings = {
      provider: 'smtp',
      apiKey: `smtp://user:secret-password@127.0.0.1:${await closedPort()}`,
      fromEmail: 'desk@example.org',
    }
    expect((await api.call('PUT', '/api/organizations/settings/email', { token: otherAdmin, body: settings })).status).toBe(200)
    const otherAssignee = await other.member('staff')
    const failing = await api.call('POST', '/api/needs', {
      token: otherAdmin,
      body: { partnerId: other.defaultPartner.id, assignedTo: otherAssignee.memberId },
    })
    expect(failing.status).toBe(201)
    const beforeFailure = await scrape()
    await api.world.useCases.operations.dispatchOutbox.runOnce()
    const failed = rise(beforeFailure, await scrape())
    expect(failed.intake_notifications_sent_total).toBe(0)
    expect(failed['intake_notification_failures_total{final="false"}']! + failed['intake_notification_failures_total{final="true"}']!).toBe(
      1,
    )
  })

  test('count each daily digest the provider took as a notification', async () => {
    // An organization of its own whose digest hour is the clock's: its admin hears of the unassigned need.
    const other = await api.world.otherOrganization()
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const digestHour = api.world.clock.now().getUTCHours()
    const settings = await api.call('PUT', '/api/organizations/settings', {
      token: otherAdmin,
      body: { digestHour, timeZone: 'UTC' },
    })
    expect(settings.status).toBe(200)
    expect((await api.call('POST', '/api/needs', { token: otherAdmin, body: { partnerId: other.defaultPartner.id } })).status).toBe(201)
    await sendOutbox()
    const before = await scrape()
    const queued = await api.world.useCases.operations.sendDailyDigests.execute()
    expect(queued).toBeGreaterThan(0)
    await sendOutbox()
    expect(rise(before, await scrape())).toMatchObject({ intake_notifications_sent_total: queued })
  })
})
