import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Reports": the needs report of a period, its figures as small charts, each with its table
// for screen readers.

describe.skipIf(!chromiumAvailable())('reports in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  /** The cells of the table captioned `caption`, row by row (screen readers read the same). */
  const tableOf = (page: import('playwright-core').Page, caption: string) =>
    page
      .locator('table', { has: page.locator('caption', { hasText: caption }) })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)))

  test("an admin reads the period's figures, by week, status and partner, with nothing serious for axe", async () => {
    const named = (name: string) => c.partners.find((p) => p.name === name)!
    const [pantry, housing] = [named('Food pantry'), named('Housing help')]
    const reference = await c.createNeed(pantry.id, 'Groceries')
    await c.createNeed(pantry.id, 'Milk')
    await c.createNeed(housing.id, 'Rent')
    const resolved = await c.api.call('PUT', `/api/needs/${reference}`, { token: c.admin.token, body: { status: 'RESOLVED' } })
    expect(resolved.status).toBe(200)
    const today = c.api.world.clock.now().toISOString().slice(0, 10)

    const page = await c.open(`/#/reports?from=${today}&to=${today}`)
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor()
    await page.getByText(`From ${today} to ${today}, both included (UTC days).`).waitFor()
    expect(await page.locator('dl.fields').textContent()).toBe('Opened3Resolved1Open now2Overdue now0')
    // Every partner, by name.
    expect(await tableOf(page, 'By partner')).toEqual([
      ['Food pantry', '2', '1', '1', '0', '0'],
      ['General intake', '0', '0', '0', '0', '—'],
      ['Housing help', '1', '0', '1', '0', '—'],
    ])
    expect(await tableOf(page, 'Needs by status now')).toContainEqual(['New', '2'])
    expect((await tableOf(page, 'Opened and resolved, by week')).flatMap((row) => row.slice(1))).toEqual(['3', '1'])
    // No text was sent or received in the period (docs/api/organization.md "SMS", the figures).
    expect(await tableOf(page, 'Texts in the period')).toEqual([
      ['Received', '0'],
      ['Sent', '0'],
      ['Delivered', '0'],
      ['Not delivered', '0'],
    ])
    // The drawings are for the eye: screen readers get the tables.
    expect(await page.locator('figure.chart > svg[aria-hidden="true"]').count()).toBe(4)
    await c.expectAccessible(page)

    // Another period from the form; a period that ends before it starts is the server's refusal, said.
    await page.getByLabel('From').fill('2026-01-10')
    await page.getByLabel('To').fill('2026-01-01')
    await page.getByRole('button', { name: 'Show' }).click()
    await page.getByRole('alert').filter({ hasText: 'must not be before from' }).waitFor()
    expect(page.url()).toContain('#/reports?from=2026-01-10&to=2026-01-01')
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('a volunteer has no reports in the bar', async () => {
    const volunteer = await c.member('volunteer', c.partners[0]!.id)
    const page = await c.open('/')
    await c.logIn(page, volunteer)
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).count()).toBe(0)
    await c.done(page)
  })
})

// A server of its own: the figures of the period above would count these needs too, in whichever order they run.
describe.skipIf(!chromiumAvailable())('people served in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  test('the people served in the period, each once, and a figure that opens the inbox on the needs behind it', async () => {
    const pantry = c.partners.find((p) => p.name === 'Food pantry')!
    const person = await c.api.call<{ id: string }>('POST', '/api/constituents', {
      token: c.admin.token,
      body: { firstName: 'Rita', lastName: 'Served' },
    })
    const references: string[] = []
    for (const description of ['Rice', 'Beans']) {
      const need = await c.api.call<{ id: string; referenceNumber: string }>('POST', '/api/needs', {
        token: c.admin.token,
        body: { partnerId: pantry.id, constituentId: person.body.id, customFields: { description } },
      })
      const resolved = await c.api.call('PUT', `/api/needs/${need.body.id}`, { token: c.admin.token, body: { status: 'RESOLVED' } })
      expect(resolved.status).toBe(200)
      references.push(need.body.referenceNumber)
    }
    await c.createNeed(pantry.id, 'Still open')
    const today = c.api.world.clock.now().toISOString().slice(0, 10)

    const page = await c.open(`/#/reports?from=${today}&to=${today}`)
    await c.logIn(page, c.admin)
    const served = page.getByRole('region', { name: 'People served' })
    await served.getByText('each counted once (days of UTC)').waitFor()
    const pantryRow = served.getByRole('row', { name: /Food pantry/ })
    // Rita, twice helped by the pantry, is one person of one household.
    expect(await pantryRow.locator('td').allTextContents()).toEqual(['1', '1'])
    await c.expectAccessible(page)
    // Printed, the page is its figures: no form, no button.
    await page.emulateMedia({ media: 'print' })
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false)
    expect(await page.getByRole('form', { name: 'Period' }).isVisible()).toBe(false)
    expect(await served.getByRole('table').isVisible()).toBe(true)
    await page.emulateMedia({ media: 'screen' })

    // The pantry's people link to its needs resolved in the period: the inbox, narrowed so, says by what.
    await pantryRow.getByRole('link').first().click()
    await page.getByRole('heading', { name: 'Needs', level: 1 }).waitFor()
    await page.getByText(/^Resolved from .* to before /).waitFor()
    // In the page's language's format, to the minute.
    expect(await page.getByText(/^Resolved from .* to before /).textContent()).not.toMatch(/\d:\d\d:\d\d/)
    expect(page.url()).toContain('resolvedFrom=')
    for (const reference of references) await page.getByRole('link', { name: reference }).waitFor()
    // Only resolved needs of the pantry: the open one is not among them.
    const statuses = await page.locator('table tbody tr').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''))
    expect(statuses.length).toBeGreaterThanOrEqual(2)
    expect(statuses.every((row) => row.includes('Resolved'))).toBe(true)
    await c.expectAccessible(page)
    // A saved view keeps the period; cleared, the list is the pantry's again, and the view brings it back.
    await page.getByLabel('Name for these filters').fill('Served at the pantry')
    await page.getByRole('button', { name: 'Save view' }).click()
    await page.getByText('Filters saved as “Served at the pantry”.').waitFor()
    await page.getByRole('button', { name: 'Clear the dates' }).click()
    await page.waitForURL((url) => !url.hash.includes('resolvedFrom') && url.hash.includes('partner='))
    await page.getByLabel('Saved view', { exact: true }).selectOption({ label: 'Served at the pantry' })
    await page.getByRole('button', { name: 'Show view' }).click()
    await page.waitForURL((url) => url.hash.includes('resolvedFrom') && url.hash.includes('resolvedTo'))
    await page.getByText(/^Resolved from .* to before /).waitFor()
    await c.done(page)
  })
})
