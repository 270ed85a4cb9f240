import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Live updates": the inbox and an open need show what happens elsewhere without a reload. The
// promise is within 2 s of the commit; the waits give 10 s (Playwright's, set below), so a busy machine running
// the browser, the server and other suites at once does not fail a stream that works.
const WITHIN_MS = 10_000

describe.skipIf(!chromiumAvailable())('live updates in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  test('a public request appears in the open inbox without a reload', async () => {
    const page = await c.open('/#/needs')
    await c.logIn(page, c.admin)
    await page.getByRole('table', { name: 'Needs' }).waitFor()
    await c.expectAccessible(page)
    const navigations: string[] = []
    page.on('framenavigated', (frame) => void navigations.push(frame.url()))

    const slug = (await c.api.world.repositories.organizations.findById(c.api.world.organizationId))!.slug
    const created = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs/public', {
      body: { organizationSlug: slug, description: 'Groceries for a family of four' },
    })
    expect(created.status).toBe(201)
    await page.getByRole('link', { name: created.body.referenceNumber }).waitFor({ timeout: WITHIN_MS })
    expect(navigations).toEqual([])
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('a note added elsewhere shows on the open need', async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'A ride to the clinic')
    const page = await c.open(`/#/needs/${reference}`)
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()

    const colleague = await c.member('staff')
    const note = await c.api.call('POST', `/api/needs/${reference}/notes`, {
      token: colleague.token,
      body: { content: 'Called, ride booked' },
    })
    expect(note.status).toBe(201)
    await page.locator('.timeline .content', { hasText: 'Called, ride booked' }).waitFor({ timeout: WITHIN_MS })
    await c.done(page)
  })
})
