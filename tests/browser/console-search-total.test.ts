import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SEARCH_TOTAL_BOUND } from '../../src/domain/constituents/search'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md "Constituents": the search says how many match as the service counted them, "more than
// 1,000" when it stopped counting (docs/api/conventions.md "Lists"), the people 25 a page, newest first.

describe.skipIf(!chromiumAvailable())('how many a search found, in the staff console', () => {
  let c: ConsoleHarness
  /** A last name of letters no other test uses. */
  const unique = () =>
    `Q${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
  const many = unique()
  const some = unique()

  /** `count` people of this last name, first names of letters only (Aaaa, Aaab, …), by one import. */
  async function people(lastName: string, count: number) {
    const firstName = (n: number) => `A${[26 * 26, 26, 1].map((unit) => String.fromCharCode(97 + (Math.floor(n / unit) % 26))).join('')}`
    const csv = ['firstName,lastName', ...Array.from({ length: count }, (_, n) => `${firstName(n)},${lastName}`), ''].join('\r\n')
    const response = await fetch(`${c.api.url}/api/constituents/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.admin.token}`, 'content-type': 'text/csv; charset=utf-8' },
      body: csv,
    })
    expect(await response.json()).toMatchObject({ created: count, errors: [] })
  }

  beforeAll(async () => {
    c = await startConsoleHarness()
    await people(many, SEARCH_TOTAL_BOUND + 1)
    await people(some, 30)
  }, 60_000)
  afterAll(() => c?.stop())

  async function search(page: Page, label: string, button: string, text: string) {
    await page.getByLabel(label).fill(text)
    await page.getByRole('button', { name: button }).click()
  }
  const rows = (page: Page) => page.locator('tbody tr').count()

  test('more than the bound is said as "more than 1,000", an exact total as it is, the people paged', async () => {
    const page = await c.open('/#/constituents')
    await c.logIn(page, c.admin)

    await search(page, 'Name, phone or email', 'Search', many)
    await page
      .getByRole('status')
      .filter({ hasText: `More than 1,000 people match “${many}”.` })
      .waitFor()
    expect(await rows(page)).toBe(25)
    await page.getByRole('navigation', { name: 'Page 1 of more than 40' }).waitFor()
    await c.expectAccessible(page)

    await search(page, 'Name, phone or email', 'Search', some)
    await page
      .getByRole('status')
      .filter({ hasText: `30 people match “${some}”.` })
      .waitFor()
    expect(await rows(page)).toBe(25)
    const firstPage = await page.locator('tbody tr td:first-child').allTextContents()
    await page.getByRole('link', { name: 'Next' }).click()
    await page.getByRole('navigation', { name: 'Page 2 of 2 (30 in all)' }).waitFor()
    expect(await rows(page)).toBe(5)
    const secondPage = await page.locator('tbody tr td:first-child').allTextContents()
    expect(new Set([...firstPage, ...secondPage]).size).toBe(30)
    await c.expectAccessible(page)
    await page.getByRole('link', { name: 'Previous' }).click()
    await page.getByRole('navigation', { name: 'Page 1 of 2 (30 in all)' }).waitFor()

    await search(page, 'Name, phone or email', 'Search', `aaab ${some}`)
    const one = page.getByRole('status').filter({ hasText: `1 person matches “aaab ${some}”.` })
    await one.waitFor()
    expect(await one.textContent()).not.toContain('newest')
    await c.done(page)
  })

  test('in Spanish, "más de 1000"', async () => {
    const page = await c.open('/?lang=es#/constituents')
    await page.getByLabel('Correo electrónico').fill(c.admin.email)
    await page.getByLabel('Contraseña').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click()

    await search(page, 'Nombre, teléfono o correo', 'Buscar', many)
    await page
      .getByRole('status')
      .filter({ hasText: `Más de 1000 personas coinciden con «${many}».` })
      .waitFor()
    expect(await rows(page)).toBe(25)
    await page.getByRole('navigation', { name: 'Página 1 de más de 40' }).waitFor()
    await c.expectAccessible(page)
    await c.done(page)
  })
})
