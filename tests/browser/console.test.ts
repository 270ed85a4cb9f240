import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md: the staff console's workflows in a real browser, on the API only, with the keyboard, axe-core on every screen.

/** The page's own document and window, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: {
  activeElement: { tagName: string; textContent: string | null; id: string } | null
  documentElement: { scrollWidth: number }
}

describe.skipIf(!chromiumAvailable())('the staff console in Chromium', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const focused = (page: Page) =>
    page.evaluate(() => ({
      tag: document.activeElement?.tagName ?? '',
      text: document.activeElement?.textContent ?? '',
      id: document.activeElement?.id ?? '',
    }))

  /** Presses Tab until `matches` says the focused element is the one wanted. */
  async function tabTo(page: Page, matches: (element: { tag: string; text: string; id: string }) => boolean, what: string) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab')
      if (matches(await focused(page))) return
    }
    throw new Error(`the keyboard never reached ${what}`)
  }

  test('keyboard only: log in, the inbox, a need, its status changed', async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'Rent is due on the first')
    const page = await c.open()
    await c.expectAccessible(page)
    await tabTo(page, (e) => e.id === 'email', 'the email field')
    await page.keyboard.type(c.admin.email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(TEST_PASSWORD)
    await page.keyboard.press('Enter')
    await page.getByRole('table').waitFor()
    await c.expectAccessible(page)

    await tabTo(page, (e) => e.tag === 'A' && e.text === reference, `the link of ${reference}`)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    await c.expectAccessible(page)

    await tabTo(page, (e) => e.id === 'status', 'the status field')
    await page.keyboard.press('ArrowDown') // New → In progress
    await tabTo(page, (e) => e.tag === 'BUTTON' && e.text === 'Change status', 'the status button')
    await page.keyboard.press('Enter')
    await page.getByText('Status changed.').waitFor()
    expect((await c.api.call('GET', `/api/needs/${reference}`, { token: c.admin.token })).body.status).toBe('IN_PROGRESS')
    await page.getByRole('listitem').filter({ hasText: 'Status: New → In progress' }).waitFor()
    expect(await page.getByLabel('Status').inputValue()).toBe('IN_PROGRESS')
    await c.done(page)
  })

  test('the inbox filters by partner, status and "Assigned to me", and pages by X-Total-Count', async () => {
    const partner = (
      await c.api.call<{ id: string }>('POST', '/api/partners', {
        token: c.admin.token,
        body: { name: `Paging ${crypto.randomUUID().slice(0, 8)}`, slaHours: 24 },
      })
    ).body
    const references: string[] = []
    for (let i = 0; i < 27; i++) references.push(await c.createNeed(partner.id, `Need number ${i}`))
    const myId = (await c.api.call<{ id: string }>('GET', '/api/profile', { token: c.admin.token })).body.id
    expect((await c.api.call('PUT', `/api/needs/${references[3]}`, { token: c.admin.token, body: { status: 'IN_PROGRESS' } })).status).toBe(
      200,
    )
    expect((await c.api.call('PUT', `/api/needs/${references[5]}`, { token: c.admin.token, body: { assignedTo: myId } })).status).toBe(200)
    const rows = (page: Page) => page.locator('tbody tr td:first-child').allTextContents()

    const page = await c.open('/')
    await c.logIn(page, c.admin)
    await page.getByRole('table').waitFor()
    await page.getByLabel('Partner').selectOption(partner.id)
    await page.getByText('Page 1 of 2 (27 needs)').waitFor()
    expect(await rows(page)).toEqual(references.slice(2).reverse())
    await page.getByRole('link', { name: 'Next' }).click()
    await page.getByText('Page 2 of 2 (27 needs)').waitFor()
    expect(await rows(page)).toEqual(references.slice(0, 2).reverse())
    await c.expectAccessible(page)

    await page.getByLabel('Status').selectOption('IN_PROGRESS')
    await page.getByText('Page 1 of 1 (1 need)').waitFor()
    expect(await rows(page)).toEqual([references[3]!])
    await page.getByLabel('Status').selectOption('')
    await page.getByLabel('Assigned to me').check()
    await page.getByText('Page 1 of 1 (1 need)').waitFor()
    expect(await rows(page)).toEqual([references[5]!])
    expect(await page.locator('tbody tr td:nth-child(4)').allTextContents()).toEqual(['Me'])
    // The filters are in the address: a reload keeps them.
    await page.reload()
    await page.getByText('Page 1 of 1 (1 need)').waitFor()
    expect(await page.getByLabel('Assigned to me').isChecked()).toBe(true)

    // The box opens a need by the number a person reads out, however it is typed.
    await page.getByLabel('Reference number').fill(` ${references[7]!.toLowerCase()} `)
    await page.getByLabel('Reference number').press('Enter')
    await page.getByRole('heading', { name: `Need ${references[7]}` }).waitFor()
    await c.done(page)
  })

  test('a new need opens at once, saying so, the keyboard at its heading; the API knows it', async () => {
    const page = await c.open('/')
    await c.logIn(page, c.admin)
    await page.getByRole('button', { name: 'New need' }).click()
    await page.getByRole('heading', { name: 'New need' }).waitFor()
    await c.expectAccessible(page)
    await page.getByLabel('Partner').selectOption({ label: c.partners[1]!.name })
    await page.getByLabel('Description').fill('The heating broke down')
    await page.getByLabel('First name').fill('Ada')
    await page.getByRole('button', { name: 'Create' }).click()
    const heading = page.locator('h1:focus', { hasText: /^Need / })
    await heading.waitFor()
    const reference = (await heading.textContent())!.replace('Need ', '')
    expect(reference).toMatch(/^[A-Z]+-[0-9]+$/)
    await page
      .getByRole('status')
      .filter({ hasText: `Need ${reference} created.` })
      .waitFor()
    await c.expectAccessible(page)
    const need = await c.api.call('GET', `/api/needs/${reference}`, { token: c.admin.token })
    expect({ partnerId: need.body.partnerId, customFields: need.body.customFields }).toEqual({
      partnerId: c.partners[1]!.id,
      customFields: { description: 'The heating broke down', firstName: 'Ada' },
    })
    await c.done(page)
  })

  test('a need is assigned to oneself, and a note added shows in its timeline; both are stored', async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'Food for a family of four')
    const page = await c.open(`/#/needs/${reference}`)
    await c.logIn(page, c.admin)
    await page.getByLabel('Note', { exact: true }).fill('Called back, delivery on Tuesday')
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.getByText('Note added.').waitFor()
    await page.locator('.timeline .content', { hasText: 'Called back, delivery on Tuesday' }).waitFor()
    const interactions = await c.api.call<Array<{ content: string }>>('GET', `/api/needs/${reference}/interactions`, {
      token: c.admin.token,
    })
    expect(interactions.body.map((i) => i.content)).toEqual(['Called back, delivery on Tuesday'])

    await page.getByRole('button', { name: 'Assign to me' }).click()
    await page.getByText('Assigned to you.').waitFor()
    const myId = (await c.api.call<{ id: string }>('GET', '/api/profile', { token: c.admin.token })).body.id
    expect((await c.api.call('GET', `/api/needs/${reference}`, { token: c.admin.token })).body.assignedTo).toBe(myId)
    expect(await page.getByRole('button', { name: 'Assign to me' }).count()).toBe(0)
    await c.expectAccessible(page)
    await c.done(page)
  })

  test("a partner agent sees only its partner's needs, at phone width, in Spanish", async () => {
    const own = await c.createNeed(c.partners[1]!.id, 'Own partner need')
    const other = await c.createNeed(c.partners[0]!.id, 'Other partner need')
    const agent = await c.member('partner_agent', c.partners[1]!.id)
    const page = await c.open('/?lang=es', { width: 375 })
    await page.getByLabel('Correo electrónico').fill(agent.email)
    await page.getByLabel('Contraseña').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click()
    await page.getByRole('table').waitFor()
    const references = await page.locator('tbody tr td:first-child').allTextContents()
    expect(references).toContain(own)
    expect(references).not.toContain(other)
    const expected = (await c.api.call<unknown[]>('GET', '/api/needs', { token: agent.token })).headers.get('x-total-count')
    expect(await page.getByText(`(${expected} ${expected === '1' ? 'solicitud' : 'solicitudes'})`).count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)

    await page.getByLabel('Número de referencia').fill(other)
    await page.getByRole('button', { name: 'Abrir' }).click()
    await page.getByText('Ninguna solicitud tiene este número').waitFor()
    await c.expectAccessible(page)

    await page.getByRole('link', { name: 'Solicitudes' }).click()
    await page.getByRole('link', { name: own }).click()
    await page.getByRole('heading', { name: `Solicitud ${own}` }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)
    await c.done(page)
  })
})
