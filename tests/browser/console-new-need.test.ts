import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "New need": the person found on file, or a new one whose possible duplicates show before saving.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { documentElement: { scrollWidth: number } }
type NeedJson = { constituentId?: string; customFields: Record<string, string>; duplicateWarning?: string }

describe.skipIf(!chromiumAvailable())('a new need in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = () =>
    `N${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
  let phones = 0
  const newPhone = () => `+1555${String(8_000_000 + ++phones).padStart(7, '0')}`
  async function onFile(fields: Record<string, string>): Promise<string> {
    const created = await c.api.call<{ id: string }>('POST', '/api/constituents', { token: c.admin.token, body: fields })
    expect(created.status).toBe(201)
    return created.body.id
  }
  const need = async (reference: string) => (await c.api.call<NeedJson>('GET', `/api/needs/${reference}`, { token: c.admin.token })).body
  async function newNeedScreen(width?: number): Promise<Page> {
    const page = await c.open('/#/new', width ? { width } : {})
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: 'New need' }).waitFor()
    await page.getByLabel('Partner').selectOption({ label: c.partners[0]!.name })
    await page.getByLabel('Description').fill('Rent is due')
    return page
  }
  /** The need created, which the console opened, the keyboard at its heading. */
  async function reference(page: Page): Promise<string> {
    const heading = page.locator('h1:focus', { hasText: /^Need / })
    await heading.waitFor()
    return (await heading.textContent())!.replace('Need ', '')
  }

  test('for someone on file: found by name with the keyboard, chosen, and the need is theirs', async () => {
    const lastName = unique()
    const id = await onFile({ firstName: 'Lucía', lastName, phone: newPhone() })
    const page = await newNeedScreen()
    await c.expectAccessible(page)
    await page.getByLabel('Someone on file').check()
    await page.getByLabel('Name, phone or email').fill(lastName)
    await page.keyboard.press('Enter')
    await page.getByText(`1 person matches “${lastName}”.`).waitFor()
    await c.expectAccessible(page)
    await page.getByRole('button', { name: `Choose Lucía ${lastName}` }).click()
    await page.getByText(`For Lucía ${lastName}`).waitFor()
    await page.getByRole('button', { name: 'Create' }).click()
    expect(await need(await reference(page))).toMatchObject({ constituentId: id, customFields: { description: 'Rent is due' } })
    await c.done(page)
  })

  test('for a new person at phone width: a possible duplicate shows before anything is saved, then "Create" keeps them new', async () => {
    const lastName = unique()
    const phone = newPhone()
    const known = await onFile({ firstName: 'Marco', lastName, phone })
    const page = await newNeedScreen(375)
    await page.getByLabel('First name').fill('Marc')
    await page.getByLabel('Last name').fill(unique())
    await page.getByLabel('Phone').fill(phone)
    await page.getByRole('button', { name: 'Create' }).click()
    const shown = page.getByRole('region', { name: 'Possible duplicates of this person' })
    await shown.waitFor()
    expect(await shown.textContent()).toContain(`Marco ${lastName}`)
    expect(await shown.textContent()).toContain('same phone')
    expect(page.url()).toEndWith('#/new')
    const needsOfKnown = await c.api.call<unknown[]>('GET', `/api/constituents/${known}/needs`, { token: c.admin.token })
    expect(needsOfKnown.body).toEqual([])
    await c.expectAccessible(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await page.getByRole('button', { name: 'Create' }).click()
    const created = await need(await reference(page))
    expect(created.constituentId).toBeDefined()
    expect(created.constituentId).not.toBe(known)
    expect(created).toMatchObject({
      customFields: { phone, firstName: 'Marc' },
      duplicateWarning: 'Possible duplicate of 1 constituent: same phone',
    })
    await c.done(page)
  })

  test('a phone typed as people write it, 503 555 0142, is kept as +15035550142; typed again otherwise, it is the same phone', async () => {
    const lastName = unique()
    const page = await newNeedScreen()
    await page.getByLabel('First name').fill('Nora')
    await page.getByLabel('Last name').fill(lastName)
    await page.getByLabel('Phone').fill('503 555 0142')
    await c.expectAccessible(page)
    await page.getByRole('button', { name: 'Create' }).click()
    const created = await need(await reference(page))
    expect(created.customFields).toMatchObject({ phone: '+15035550142', lastName })
    const person = await c.api.call<{ phone: string }>('GET', `/api/constituents/${created.constituentId}`, { token: c.admin.token })
    expect(person.body.phone).toBe('+15035550142')

    const again = await newNeedScreen()
    await again.getByLabel('First name').fill('Someone')
    await again.getByLabel('Last name').fill(unique())
    await again.getByLabel('Phone').fill('(503) 555-0142')
    await again.getByRole('button', { name: 'Create' }).click()
    const shown = again.getByRole('region', { name: 'Possible duplicates of this person' })
    await shown.waitFor()
    expect(await shown.textContent()).toContain(`Nora ${lastName}`)
    expect(await shown.textContent()).toContain('same phone')
    await c.done(page)
    await c.done(again)
  })

  test('a possible duplicate checked on demand can be chosen instead: the need is theirs', async () => {
    const lastName = unique()
    const email = `${lastName.toLowerCase()}@example.org`
    const known = await onFile({ firstName: 'Rosa', lastName, email })
    const page = await newNeedScreen()
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByRole('button', { name: 'Check for duplicates' }).click()
    await page.getByRole('button', { name: `Choose Rosa ${lastName}` }).click()
    await page.getByText(`For Rosa ${lastName}`).waitFor()
    await page.getByRole('button', { name: 'Create' }).click()
    expect(await need(await reference(page))).toMatchObject({ constituentId: known })
    await c.done(page)
  })
})
