import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { startWebhookReceiver } from '../support/webhook-receiver'
import { deliverUntil } from '../adapters/http/helpers'

// docs/console.md "Administration": webhook endpoints added with their events, the signing secret shown once
// with a button to copy it (the receiver checks the signatures with the copied secret), the deliveries with
// their status, disabling and enabling again.

/** The page's own clipboard, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const navigator: { clipboard: { readText(): Promise<string> } }
declare const document: { documentElement: { scrollWidth: number }; activeElement: { id: string } | null }

describe.skipIf(!chromiumAvailable())('webhook endpoints in the staff console', () => {
  let c: ConsoleHarness
  const receiver = startWebhookReceiver()
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(async () => {
    await c?.stop()
    receiver.stop()
  })

  test('an admin at phone width adds an endpoint, copies its secret once, reads its deliveries, disables and enables it', async () => {
    const url = receiver.url('/console')
    await c.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.api.url })
    const page = await c.open('/#/admin/webhooks', { width: 375 })
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor()
    await page.getByText('No webhook endpoints yet.').waitFor()
    await c.expectAccessible(page)

    await page.getByLabel('URL').fill(url)
    await page.getByLabel(/need\.created/).check()
    await page.getByLabel(/note\.added/).check()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const once = page.getByRole('region', { name: `Signing secret for ${url}` })
    await once.waitFor()
    const secret = await once.getByLabel('Secret').inputValue()
    expect(secret).toMatch(/^whsec_/)
    // The keyboard is moved to the secret by an effect after the paint: wait for the move.
    await page.waitForFunction(() => document.activeElement?.id === 'endpoint-secret', undefined, { timeout: 10_000 })
    await c.expectAccessible(page)
    await once.getByRole('button', { name: 'Copy' }).click()
    await once.getByText('Copied.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    await once.getByRole('button', { name: 'I stored it' }).click()
    expect(await page.content()).not.toContain(secret)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    const endpoints = await c.api.call('GET', '/api/webhook-endpoints', { token: c.admin.token })
    expect(endpoints.body).toMatchObject([{ url, events: ['need.created', 'note.added'], enabled: true }])

    // A new need is posted, signed with the secret the screen showed.
    receiver.secretFor('/console', secret)
    await c.createNeed(c.partners[0]!.id, 'Groceries for a week')
    const delivered = await deliverUntil(c.api, () => receiver.received.find((r) => r.path === '/console'), 'the webhook')
    expect(delivered).toMatchObject({ type: 'need.created', signatureValid: true })

    await page.getByRole('link', { name: url }).click()
    await page.getByRole('heading', { name: `Deliveries to ${url}` }).waitFor()
    const row = page.getByRole('row').filter({ hasText: 'need.created' })
    for (const shown of ['Sent', '200']) await row.getByText(shown, { exact: true }).waitFor()
    await page.getByText('Page 1 of 1 (1 delivery)').waitFor()
    await c.expectAccessible(page)

    await page.getByRole('link', { name: 'All endpoints' }).click()
    await page.getByRole('button', { name: `Disable ${url}` }).click()
    await page.getByText('Endpoint disabled: nothing more is sent to it.').waitFor()
    await page.getByRole('cell', { name: 'Disabled' }).waitFor()
    expect((await c.api.call('GET', '/api/webhook-endpoints', { token: c.admin.token })).body[0].enabled).toBe(false)
    await page.getByRole('button', { name: `Enable ${url}` }).click()
    await page.getByText('Endpoint enabled.').waitFor()
    expect((await c.api.call('GET', '/api/webhook-endpoints', { token: c.admin.token })).body[0].enabled).toBe(true)
    await c.done(page)
  })

  test('an address the service refuses is said, with the field; an unknown endpoint is said too', async () => {
    const page = await c.open('/#/admin/webhooks')
    await c.logIn(page, c.admin)
    await page.getByLabel('URL').fill('https://user:password@example.org/hook')
    await page.getByLabel(/need\.updated/).check()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    // Beside the button, announced; the error under the field, which keeps what was typed.
    const form = page.getByRole('form', { name: 'Add endpoint' })
    await form.getByRole('status').getByText('Not saved. Correct these fields:').waitFor()
    await form.getByRole('status').getByRole('button', { name: 'URL' }).click()
    const url = page.getByLabel('URL')
    expect(await url.evaluate((element) => element === document.activeElement)).toBe(true)
    expect(await url.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#endpoint-url-error').textContent()).toMatch(/password/)
    expect(await url.inputValue()).toBe('https://user:password@example.org/hook')
    expect(await page.getByRole('region', { name: /Signing secret/ }).count()).toBe(0)
    // An endpoint's deliveries by an address naming none.
    await page.goto(`${c.api.url}/#/admin/webhooks/${crypto.randomUUID()}`)
    await page.getByText('No webhook endpoint has this id.').waitFor()
    await c.done(page)
  })
})
