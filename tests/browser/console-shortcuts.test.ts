import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Keyboard shortcuts": "?" lists them in a dialog, "/" goes to the screen's search, "n" opens a
// new need; none acts while the member types in a field.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { activeElement: { id: string; textContent: string | null } | null }
const focused = (page: Page) => page.evaluate(() => ({ id: document.activeElement?.id, text: document.activeElement?.textContent }))

describe.skipIf(!chromiumAvailable())('keyboard shortcuts in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  test('"?" lists the shortcuts in a dialog that Escape closes, the keyboard back where it was; "/" and "n"', async () => {
    const page = await c.open('/')
    await c.logIn(page, c.admin)
    await page.getByRole('table').waitFor()
    await page.getByRole('link', { name: 'Constituents' }).focus()
    await page.keyboard.press('?')
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await dialog.waitFor()
    const listed = (await dialog.textContent())!
    for (const line of ['/Go to the search box of the screen', 'nNew need', '?Show this list']) expect(listed).toContain(line)
    await c.expectAccessible(page)
    // Keys pressed in the dialog are its own.
    await page.keyboard.press('n')
    expect(page.url()).not.toContain('#/new')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect(await focused(page)).toMatchObject({ text: 'Constituents' })

    await page.keyboard.press('/')
    expect(await focused(page)).toMatchObject({ id: 'reference' })
    // Typed in a field, "n" is a letter.
    await page.keyboard.type('n')
    expect(await page.getByLabel('Reference number').inputValue()).toBe('n')
    expect(page.url()).not.toContain('#/new')

    await page.getByRole('link', { name: 'Constituents' }).focus()
    await page.keyboard.press('n')
    await page.getByRole('heading', { name: 'New need' }).waitFor()
    await c.done(page)
  })

  test('in Spanish at phone width, the list in Spanish; a volunteer, who may not create needs, is not offered "n"', async () => {
    const volunteer = await c.member('volunteer', c.partners[0]!.id)
    const page = await c.open('/?lang=es', { width: 375 })
    await c.logIn(page, volunteer, 'es')
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await page.keyboard.press('?')
    const dialog = page.getByRole('dialog', { name: 'Atajos de teclado' })
    await dialog.waitFor()
    const listed = (await dialog.textContent())!
    expect(listed).toContain('Mostrar esta lista')
    expect(listed).not.toContain('Nueva solicitud')
    await c.expectAccessible(page)
    await dialog.getByRole('button', { name: 'Cerrar' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.keyboard.press('n')
    expect(page.url()).not.toContain('#/new')
    await c.done(page)
  })
})
