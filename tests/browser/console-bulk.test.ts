import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "The inbox": needs ticked in the list changed at once (POST /api/needs/bulk), what came of each
// said by its reference number, and the member's saved views of the list (/api/profile/views).

describe.skipIf(!chromiumAvailable())('bulk changes and saved views in the inbox', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const stored = async (reference: string) =>
    (await c.api.call<Record<string, unknown>>('GET', `/api/needs/${reference}`, { token: c.admin.token })).body

  test('an admin ticks three needs and assigns them all to a colleague; each says it changed; a refused one says why', async () => {
    const colleague = await c.member('staff', undefined, { fullName: 'Bea Colleague' })
    const colleagueId = (await c.api.call<{ id: string }>('GET', '/api/profile', { token: colleague.token })).body.id
    const partner = c.partners[1]!
    const references: string[] = []
    for (const description of ['Food box', 'Boiler repair', 'Ride to clinic']) references.push(await c.createNeed(partner.id, description))
    const page = await c.open(`/#/needs?partner=${partner.id}`)
    await c.logIn(page, c.admin)
    await page.getByRole('link', { name: references[0]! }).waitFor()
    await c.expectAccessible(page)

    for (const reference of references) await page.getByLabel(`Select ${reference}`).check()
    await page.getByText('3 needs selected').waitFor()
    await page.locator('#bulk-assignee').selectOption({ label: 'Bea Colleague' })
    await page.getByRole('button', { name: 'Apply to 3 needs' }).click()
    await page.getByText('3 of 3 needs changed.').waitFor()
    for (const reference of references) {
      await page.getByText(`${reference}: changed.`).waitFor()
      expect((await stored(reference)).assignedTo).toBe(colleagueId)
    }
    await c.expectAccessible(page)

    // One need resolved: moving it back to NEW is refused, the other goes.
    const resolve = await c.api.call('PUT', `/api/needs/${references[0]}`, { token: c.admin.token, body: { status: 'RESOLVED' } })
    expect(resolve.status).toBe(200)
    await page.reload()
    await page.getByLabel(`Select ${references[1]}`).waitFor()
    await page.getByLabel(`Select ${references[0]}`).check()
    await page.getByLabel(`Select ${references[1]}`).check()
    await page.locator('#bulk-status').selectOption({ label: 'New' })
    await page.getByRole('button', { name: 'Apply to 2 needs' }).click()
    await page.getByText('1 of 2 needs changed.').waitFor()
    await page.getByText(`${references[0]}: not changed, A need cannot move from RESOLVED to NEW`).waitFor()
    expect((await stored(references[0]!)).status).toBe('RESOLVED')
    await c.done(page)
  })

  test('a member saves the filters shown as a view, opens it from another address, and deletes it', async () => {
    const partner = c.partners[0]!
    await c.createNeed(partner.id, 'Blankets')
    const page = await c.open(`/#/needs?partner=${partner.id}&status=NEW`)
    await c.logIn(page, c.admin)
    await page.getByLabel('Name for these filters').fill('New at the first pantry')
    await page.getByRole('button', { name: 'Save view' }).click()
    await page.getByText('Filters saved as “New at the first pantry”.').waitFor()
    const views = await c.api.call<Array<{ name: string; filters: unknown }>>('GET', '/api/profile/views', { token: c.admin.token })
    expect(views.body).toMatchObject([{ name: 'New at the first pantry', filters: { status: ['NEW'], partnerId: partner.id } }])

    await page.goto(`${new URL(page.url()).origin}/#/needs`)
    await page.getByLabel('Saved view', { exact: true }).selectOption({ label: 'New at the first pantry' })
    await page.getByRole('button', { name: 'Show view' }).click()
    await page.waitForURL((url) => url.hash.includes(`partner=${partner.id}`) && url.hash.includes('status=NEW'))
    expect(await page.locator('#filter-partner').inputValue()).toBe(partner.id)
    await c.expectAccessible(page)

    await page.getByLabel('Saved view', { exact: true }).selectOption({ label: 'New at the first pantry' })
    await page.getByRole('button', { name: 'Delete view' }).click()
    await page.getByText('View “New at the first pantry” deleted.').waitFor()
    expect((await c.api.call<unknown[]>('GET', '/api/profile/views', { token: c.admin.token })).body).toEqual([])
    await c.done(page)
  })
})
