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
    expect(await focused(page)).toMatchObject({ id: 'needs-query' })
    // Typed in a field, "n" is a letter.
    await page.keyboard.type('n')
    expect(await page.getByLabel('Search needs').inputValue()).toBe('n')
    expect(page.url()).not.toContain('#/new')

    await page.getByRole('link', { name: 'Constituents' }).focus()
    await page.keyboard.press('n')
    await page.getByRole('heading', { name: 'New need' }).waitFor()
    await c.done(page)
  })

  test('"j" and "k" move the keyboard down and up the inbox\'s needs; Enter opens the one it is on', async () => {
    const [first, second] = [await c.createNeed(c.partners[0]!.id, 'Older'), await c.createNeed(c.partners[0]!.id, 'Newer')]
    const page = await c.open('/')
    await c.logIn(page, c.admin)
    await page.getByRole('link', { name: second, exact: true }).waitFor()
    await page.keyboard.press('j')
    expect(await focused(page)).toMatchObject({ text: second })
    await page.keyboard.press('j')
    expect(await focused(page)).toMatchObject({ text: first })
    await page.keyboard.press('k')
    expect(await focused(page)).toMatchObject({ text: second })
    await page.keyboard.press('?')
    const listed = (await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).textContent())!
    for (const line of ['jNext need in the list', 'kPrevious need in the list']) expect(listed).toContain(line)
    await page.keyboard.press('Escape')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: `Need ${second}` }).waitFor()
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
