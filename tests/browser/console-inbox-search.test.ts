import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// The page's, inside page.evaluate: this project's types have no DOM.
declare const document: { documentElement: { scrollWidth: number } }

// docs/console.md "Needs inbox": one search box (words of the description, the person's name written on the need or
// that of the person on file it is for), the overdue filter
// and its mark, sorting by a column; at 375 px each row a card, nothing cut off; in English and Spanish.

describe.skipIf(!chromiumAvailable())('searching the needs inbox in the staff console', () => {
  let c: ConsoleHarness
  /** Words of letters no other test uses. */
  const unique = () =>
    `w${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
  const word = unique()
  const surname = unique()
  const onFile = unique()
  const references: Record<'described' | 'named' | 'linked' | 'overdue', string> = { described: '', named: '', linked: '', overdue: '' }

  async function need(body: Record<string, unknown>): Promise<string> {
    const created = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, ...body },
    })
    expect(created.status).toBe(201)
    return created.body.referenceNumber
  }

  beforeAll(async () => {
    c = await startConsoleHarness()
    const past = new Date(c.api.world.clock.now().getTime() - 3_600_000).toISOString()
    references.overdue = await need({ dueDate: past, customFields: { description: `Overdue ${word} roof repair` } })
    references.described = await need({ customFields: { description: `Broken ${word} window` } })
    references.named = await need({ customFields: { description: 'Groceries', firstName: 'Zelda', lastName: surname } })
    const person = await c.api.call<{ id: string }>('POST', '/api/constituents', {
      token: c.admin.token,
      body: { firstName: 'Leocadia', lastName: onFile },
    })
    expect(person.status).toBe(201)
    // Nothing of the name on the need itself: found through the person on file.
    references.linked = await need({ constituentId: person.body.id, customFields: { description: 'Firewood' } })
  }, 60_000)
  afterAll(() => c?.stop())

  const rows = (page: Page) => page.locator('tbody tr td:first-child').allTextContents()
  async function search(page: Page, label: string, button: string, text: string) {
    await page.getByLabel(label).fill(text)
    await page.getByRole('button', { name: button, exact: true }).click()
  }
  const fitsThePhone = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

  test('on a desktop: by a word of the description, by a name, the overdue filter and its mark, sorted by a column', async () => {
    const page = await c.open('/')
    await c.logIn(page, c.admin)
    await page.getByRole('table').waitFor()

    await search(page, 'Search needs', 'Search', word.toUpperCase())
    await page.getByText('Page 1 of 1 (2 needs)').waitFor()
    expect(await rows(page)).toEqual([references.described, references.overdue])
    await c.expectAccessible(page)

    await search(page, 'Search needs', 'Search', `zel ${surname}`)
    await page.getByText('Page 1 of 1 (1 need)').waitFor()
    expect(await rows(page)).toEqual([references.named])

    await search(page, 'Search needs', 'Search', `${onFile} leoc`)
    await page.locator('tbody tr td:first-child', { hasText: references.linked }).waitFor()
    await page.getByText('Page 1 of 1 (1 need)').waitFor()
    expect(await rows(page)).toEqual([references.linked])

    await search(page, 'Search needs', 'Search', word)
    await page.getByText('Page 1 of 1 (2 needs)').waitFor()
    await page.getByLabel('Overdue only').check()
    await page.getByText('Page 1 of 1 (1 need)').waitFor()
    expect(await rows(page)).toEqual([references.overdue])
    expect(await page.locator('tbody tr').first().textContent()).toContain('Overdue')
    await c.expectAccessible(page)

    await page.getByLabel('Overdue only').uncheck()
    await page.getByText('Page 1 of 1 (2 needs)').waitFor()
    await page.getByRole('link', { name: /^Created/ }).click()
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Created' }).waitFor()
    expect(await rows(page)).toEqual([references.overdue, references.described])
    // The search, the filters and the order are in the address: a reload keeps them.
    await page.reload()
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Created' }).waitFor()
    expect(await page.getByLabel('Search needs').inputValue()).toBe(word)
    expect(await rows(page)).toEqual([references.overdue, references.described])
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('at phone width, in Spanish: each row a card, nothing cut off; the search and the overdue filter', async () => {
    const page = await c.open('/?lang=es', { width: 375 })
    await page.getByLabel('Correo electrónico').fill(c.admin.email)
    await page.getByLabel('Contraseña').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click()
    await page.getByRole('table').waitFor()
    await fitsThePhone(page)

    await search(page, 'Buscar solicitudes', 'Buscar', `zelda ${surname}`)
    await page.getByText('Página 1 de 1 (1 solicitud)').waitFor()
    expect(await rows(page)).toEqual([references.named])
    await fitsThePhone(page)
    await c.expectAccessible(page)

    await search(page, 'Buscar solicitudes', 'Buscar', word)
    await page.getByText('Página 1 de 1 (2 solicitudes)').waitFor()
    await page.getByLabel('Solo vencidas').check()
    await page.getByText('Página 1 de 1 (1 solicitud)').waitFor()
    expect(await rows(page)).toEqual([references.overdue])
    expect(await page.locator('tbody tr').first().textContent()).toContain('Vencida')
    await fitsThePhone(page)
    // A card: the row's fields one under another, each as wide as the page allows.
    const card = await page.locator('tbody tr').first().boundingBox()
    expect(card!.x + card!.width).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)
    await c.done(page)
  })
})
