import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'

// docs/console.md "Constituents": a person's details edited as the member may read them, each refusal beside
// its field; "New need for this person", which opens the need created.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { documentElement: { scrollWidth: number } }
type Stored = Record<string, string | undefined>

const WORDS = {
  en: {
    newNeed: 'New need for this person',
    forPerson: 'For',
    partner: 'Partner',
    description: 'Description',
    create: 'Create',
    need: 'Need',
    who: 'Who it is for',
  },
  es: {
    newNeed: 'Nueva solicitud para esta persona',
    forPerson: 'Para',
    partner: 'Socio',
    description: 'Descripción',
    create: 'Crear',
    need: 'Solicitud',
    who: 'Para quién es',
  },
}

describe.skipIf(!chromiumAvailable())("a person's screen in the staff console", () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = () =>
    `E${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
  async function person(fields: Record<string, string>): Promise<string> {
    const created = await c.api.call<{ id: string }>('POST', '/api/constituents', { token: c.admin.token, body: fields })
    expect(created.status).toBe(201)
    return created.body.id
  }
  const stored = async (id: string) => (await c.api.call<Stored>('GET', `/api/constituents/${id}`, { token: c.admin.token })).body

  async function openPerson(
    who: Member,
    id: string,
    name: string,
    options: { width?: number; language?: 'en' | 'es' } = {},
  ): Promise<Page> {
    const page = await c.open(`/${options.language === 'es' ? '?lang=es' : ''}#/constituents/${id}`, options)
    await c.logIn(page, who, options.language)
    await page.getByRole('heading', { name, level: 1 }).waitFor()
    return page
  }

  test('an admin edits a phone and a city: a bad phone is said beside its field, the good one stored', async () => {
    const lastName = unique()
    const id = await person({ firstName: 'Iris', lastName, phone: '+15550170001', addressCity: 'Salem' })
    const page = await openPerson(c.admin, id, `Iris ${lastName}`)
    await c.expectAccessible(page)
    await page.getByRole('button', { name: 'Edit details' }).click()
    const form = page.getByRole('form', { name: 'Edit details' })
    expect(await form.getByLabel('Phone').inputValue()).toBe('+15550170001')
    // The keyboard is in the form at once, and back on "Edit details" once it is saved.
    expect(await form.getByLabel('First name').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true)

    await form.getByLabel('Phone').fill('not a phone')
    await form.getByLabel('City').fill('Portland')
    await form.getByRole('button', { name: 'Save details' }).click()
    const phone = form.getByLabel('Phone')
    await page.locator('#edit-phone-error').waitFor()
    expect(await phone.getAttribute('aria-invalid')).toBe('true')
    expect(await phone.getAttribute('aria-describedby')).toBe('edit-phone-error')
    expect(await form.getByLabel('City').getAttribute('aria-invalid')).toBeNull()
    expect(await stored(id)).toMatchObject({ phone: '+15550170001', addressCity: 'Salem' })
    await c.expectAccessible(page)

    await phone.fill('+15550170002')
    await form.getByRole('button', { name: 'Save details' }).click()
    await page.getByRole('status').filter({ hasText: 'Details saved.' }).waitFor()
    expect(
      await page.getByRole('button', { name: 'Edit details' }).evaluate((button) => button === button.ownerDocument.activeElement),
    ).toBe(true)
    expect(await stored(id)).toMatchObject({ phone: '+15550170002', addressCity: 'Portland', firstName: 'Iris' })
    const details = (await page.locator('dl.fields').textContent())!
    for (const shown of ['+15550170002', 'Portland']) expect(details).toContain(shown)
    await c.done(page)
  })

  test('at phone width in Spanish, a partner agent is offered the names only (no phone it may not read), and saves one', async () => {
    const lastName = unique()
    const id = await person({ firstName: 'Olga', lastName, phone: '+15550170010' })
    const agent = await c.member('partner_agent', c.partners[0]!.id)
    const page = await openPerson(agent, id, `Olga ${lastName}`, { width: 375, language: 'es' })
    await page.getByRole('button', { name: 'Editar los datos' }).click()
    const form = page.getByRole('form', { name: 'Editar los datos' })
    await form.getByLabel('Nombre').waitFor()
    expect(await form.getByLabel('Teléfono').count()).toBe(0)
    expect(await form.getByLabel('Correo electrónico').count()).toBe(0)
    await form.getByLabel('Apellido').fill(`${lastName}x`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)
    await form.getByRole('button', { name: 'Guardar los datos' }).click()
    await page.getByRole('heading', { name: `Olga ${lastName}x`, level: 1 }).waitFor()
    await page.getByRole('status').filter({ hasText: 'Datos guardados.' }).waitFor()
    expect(await stored(id)).toMatchObject({ lastName: `${lastName}x`, phone: '+15550170010' })
    await c.expectAccessible(page)
    await c.done(page)
  })

  for (const [language, width] of [
    ['en', undefined],
    ['es', 375],
  ] as const) {
    test(`a new need from the person's screen is theirs, and opens with its heading focused (${language}${width ? ', 375 px' : ''})`, async () => {
      const words = WORDS[language]
      const lastName = unique()
      const name = `Ana ${lastName}`
      const id = await person({ firstName: 'Ana', lastName })
      const page = await openPerson(c.admin, id, name, { language, ...(width ? { width } : {}) })
      await page.getByRole('link', { name: words.newNeed }).click()
      await page.getByText(`${words.forPerson} ${name}`).waitFor()
      await c.expectAccessible(page)
      await page.getByLabel(words.partner).selectOption({ label: c.partners[1]!.name })
      await page.getByLabel(words.description).fill('Winter coats')
      await page.getByRole('button', { name: words.create }).click()
      const heading = page.locator('h1:focus', { hasText: `${words.need} ` })
      await heading.waitFor()
      const reference = (await heading.textContent())!.replace(`${words.need} `, '')
      await page.getByRole('region', { name: words.who }).getByRole('link', { name }).waitFor()
      if (width) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      await c.expectAccessible(page)
      const need = await c.api.call<{ constituentId: string; partnerId: string }>('GET', `/api/needs/${reference}`, {
        token: c.admin.token,
      })
      expect(need.body).toMatchObject({ constituentId: id, partnerId: c.partners[1]!.id })
      await c.done(page)
    })
  }
})
