import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Administration": the public intake form's link, copied, as a QR code to print and as an iframe for
// the sites of formOrigins; and the warning before a new slug is saved.

/** The page's own document and clipboard, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const navigator: { clipboard: { readText(): Promise<string> } }
declare const document: { body: { classList: { contains(name: string): boolean } } }
declare const window: { print(): void; printed: boolean }

const BASE_URL = 'https://intake.example.org'

describe.skipIf(!chromiumAvailable())('the intake link in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness({ PUBLIC_BASE_URL: BASE_URL })
  })
  afterAll(() => c?.stop())

  const settingsNow = async () =>
    (await c.api.call<{ slug: string; name: string }>('GET', '/api/organizations/settings', { token: c.admin.token })).body

  test('an admin copies the link, sees its QR code and prints it alone, and copies the iframe for a partner site', async () => {
    await c.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.api.url })
    const { slug, name } = await settingsNow()
    const url = `${BASE_URL}/intake/${slug}`
    const page = await c.open('/#/admin/organization')
    await c.logIn(page, c.admin)
    const section = page.getByRole('region', { name: 'Public intake form' })
    await section.waitFor()

    expect(await section.getByLabel('Link to the form').inputValue()).toBe(url)
    await section.getByRole('button', { name: 'Copy link' }).click()
    await section.getByText('Copied.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)

    const qr = section.getByRole('img', { name: `QR code of the public intake form of ${name}` })
    expect(await qr.evaluate((svg) => svg.tagName)).toBe('svg')
    expect(await section.locator('figcaption').textContent()).toContain(url)
    // The print button prints the poster alone: the page's class hides the rest on paper while the print lasts.
    await page.evaluate(() => {
      window.print = () => {
        window.printed = document.body.classList.contains('printing-poster')
      }
    })
    await section.getByRole('button', { name: 'Print the QR code' }).click()
    expect(await page.evaluate(() => window.printed)).toBe(true)

    const snippet = await section.getByLabel('Code to show the form on a partner site').inputValue()
    expect(snippet).toBe(`<iframe src="${url}" title="Ask ${name} for help" width="100%" height="900"></iframe>`)
    await section.getByText(/No site is listed in Form origins yet/).waitFor()
    await section.getByRole('button', { name: 'Copy code' }).click()
    await section.getByText('Copied.').nth(1).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet)
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('a new slug is warned about before it is saved: the old link keeps leading to the form', async () => {
    const { slug } = await settingsNow()
    const renamed = `${slug}-new`
    const page = await c.open('/#/admin/organization')
    await c.logIn(page, c.admin)
    await page.getByLabel('Slug').waitFor()
    expect(await page.locator('.warning', { hasText: 'The old link keeps working' }).count()).toBe(0)

    await page.getByLabel('Slug').fill(renamed)
    const warning = page.getByRole('status').filter({ hasText: 'The old link keeps working' })
    await warning.waitFor()
    expect(await warning.textContent()).toContain(`…/intake/${slug} to …/intake/${renamed}`)
    await c.expectAccessible(page)

    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Saved.').waitFor()
    expect((await settingsNow()).slug).toBe(renamed)
    expect(await page.getByLabel('Link to the form').inputValue()).toBe(`${BASE_URL}/intake/${renamed}`)
    expect(await warning.count()).toBe(0)
    const old = await fetch(`${c.api.url}/intake/${slug}`, { redirect: 'manual' })
    expect(old.status).toBe(308)
    await c.done(page)
  })
})
