import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'

// docs/console.md "A need": whom it is for (name and phone as the API answers them to the reader, a link to
// them, their other open needs, their household by name), its intake fields by their names, the members
// offered to assign to, and the same need in dark colours and on paper.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { documentElement: { scrollWidth: number }; body: unknown }
declare function getComputedStyle(element: unknown): { backgroundColor: string }

describe.skipIf(!chromiumAvailable())("a need's person in the staff console", () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = () =>
    `P${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
  let phones = 0
  const newPhone = () => `+1555${String(7_000_000 + ++phones).padStart(7, '0')}`

  async function need(body: Record<string, unknown>): Promise<{ referenceNumber: string; constituentId: string }> {
    const created = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, ...body },
    })
    expect(created.status).toBe(201)
    const stored = await c.api.call<{ constituentId: string }>('GET', `/api/needs/${created.body.referenceNumber}`, {
      token: c.admin.token,
    })
    return { referenceNumber: created.body.referenceNumber, constituentId: stored.body.constituentId }
  }

  /** A need for a new person (registered by its intake's contact keys), another open one and a resolved one, and a relative. */
  async function personWithNeeds() {
    const lastName = unique()
    const phone = newPhone()
    const first = await need({
      customFields: {
        description: 'Rent is due',
        firstName: 'Elena',
        lastName,
        phone,
        addressCity: 'Springfield',
        preferredLanguage: 'Spanish',
      },
    })
    const id = first.constituentId
    const other = await need({ constituentId: id, customFields: { description: 'Groceries' } })
    const resolved = await need({ constituentId: id, customFields: { description: 'A ride' } })
    const resolving = await c.api.call('PUT', `/api/needs/${resolved.referenceNumber}`, {
      token: c.admin.token,
      body: { status: 'RESOLVED' },
    })
    expect(resolving.status).toBe(200)
    const person = await c.api.call<{ householdId: string }>('GET', `/api/constituents/${id}`, { token: c.admin.token })
    const relative = await c.api.call('POST', '/api/constituents', {
      token: c.admin.token,
      body: { firstName: 'Tomás', lastName, householdId: person.body.householdId },
    })
    expect(relative.status).toBe(201)
    return {
      name: `Elena ${lastName}`,
      phone,
      id,
      reference: first.referenceNumber,
      other: other.referenceNumber,
      resolved: resolved.referenceNumber,
      relative: `Tomás ${lastName}`,
    }
  }

  async function openNeed(who: Member, reference: string, options: { width?: number; language?: 'en' | 'es' } = {}): Promise<Page> {
    const page = await c.open(options.language === 'es' ? `/?lang=es#/needs/${reference}` : `/#/needs/${reference}`, options)
    await c.logIn(page, who, options.language)
    return page
  }

  test('an admin reads whom the need is for: name (a link), phone, other open needs, household by name; fields by their names', async () => {
    const person = await personWithNeeds()
    const page = await openNeed(c.admin, person.reference)
    const section = page.getByRole('region', { name: 'Who it is for' })
    await section.getByRole('link', { name: person.name }).waitFor()
    const text = (await section.textContent())!
    expect(text).toContain(person.phone)
    expect(text).toContain(person.relative)
    await section.getByRole('link', { name: person.other }).waitFor()
    expect(text).not.toContain(person.resolved)
    expect(text).not.toContain(person.reference)
    const details = (await page.getByRole('region', { name: 'Details' }).textContent())!
    for (const shown of ['CitySpringfield', 'Preferred languageSpanish', 'First nameElena']) expect(details).toContain(shown)
    await c.expectAccessible(page)

    // Dark colours pass the same checks, contrast among them.
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 22, 22)')
    await c.expectAccessible(page)
    // On paper: the need, its person, notes and history; no navigation and no buttons.
    await page.emulateMedia({ media: 'print', colorScheme: 'light' })
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false)
    expect(await page.getByRole('button', { name: 'Add note' }).isVisible()).toBe(false)
    expect(await page.getByRole('heading', { name: 'Change this need' }).isVisible()).toBe(false)
    for (const heading of ['Details', 'Who it is for', 'Notes and messages', 'History of changes'])
      expect(await page.getByRole('heading', { name: heading, exact: true }).isVisible()).toBe(true)
    await page.emulateMedia({ media: 'screen' })

    await section.getByRole('link', { name: person.name }).click()
    await page.getByRole('heading', { name: person.name, level: 1 }).waitFor()
    await c.done(page)
  })

  test('at phone width in Spanish, a partner agent reads the name but no phone; a volunteer only that the need is for someone on file', async () => {
    const person = await personWithNeeds()
    const agent = await c.member('partner_agent', c.partners[0]!.id)
    const page = await openNeed(agent, person.reference, { width: 375, language: 'es' })
    const section = page.getByRole('region', { name: 'Para quién es' })
    await section.getByRole('link', { name: person.name }).waitFor()
    const text = (await section.textContent())!
    expect(text).not.toContain('Teléfono')
    expect(text).not.toContain(person.phone)
    expect(text).toContain(person.relative)
    expect((await page.getByRole('region', { name: 'Datos' }).textContent())!).toContain('Idioma preferidoSpanish')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)
    await c.done(page)

    const volunteer = await c.member('volunteer', c.partners[0]!.id)
    const seen = await openNeed(volunteer, person.reference, { width: 375, language: 'es' })
    const neutral = seen.getByRole('region', { name: 'Para quién es' })
    await neutral.getByText('Esta solicitud es para alguien registrado.').waitFor()
    expect(await neutral.getByRole('link').count()).toBe(0)
    await c.expectAccessible(seen)
    await c.done(seen)
  })

  test('"Assign to" offers active members only', async () => {
    const active = `Eli ${unique()}`
    const gone = `Dora ${unique()}`
    await c.member('staff', undefined, { fullName: active })
    const leaving = await c.member('staff', undefined, { fullName: gone })
    const leavingId = (await c.api.call<{ id: string }>('GET', '/api/profile', { token: leaving.token })).body.id
    expect((await c.api.call('DELETE', `/api/members/${leavingId}`, { token: c.admin.token })).status).toBeLessThan(300)
    const page = await openNeed(c.admin, await c.createNeed(c.partners[0]!.id, 'Boiler repair'))
    const options = page.getByLabel('Assign to').locator('option')
    await options.filter({ hasText: active }).waitFor({ state: 'attached' })
    expect(await options.filter({ hasText: gone }).count()).toBe(0)
    await c.done(page)
  })
})
