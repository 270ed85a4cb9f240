import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Services": the directory of services in Administration, in Chromium with axe-core on the screen.

type Service = { id: string; name: string; partnerId: string; status: string; acceptingReferrals: boolean; isArchived: boolean }

describe.skipIf(!chromiumAvailable())('services in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = (name: string) => `${name} ${crypto.randomUUID().slice(0, 6)}`
  const servicesNow = async () =>
    (await c.api.call<Service[]>('GET', '/api/services?includeArchived=true&limit=100', { token: c.admin.token })).body

  test('an admin adds a service for a partner, sees it listed, and archives it', async () => {
    const name = unique('Food pantry')
    const partner = c.partners[0]!
    const page = await c.open('/#/admin/services')
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: 'Services', level: 2 }).waitFor()
    await c.expectAccessible(page)

    const form = page.getByRole('form', { name: 'Add service' })
    await form.getByLabel('Partner').selectOption(partner.id)
    await form.getByLabel('Name').fill(name)
    await form.getByLabel('Status').selectOption('temporarily closed')
    await form.getByLabel('Accepting referrals').uncheck()
    await form.getByRole('button', { name: 'Add service' }).click()
    await page.getByText(`Service ${name} added.`).waitFor()
    const added = (await servicesNow()).find((s) => s.name === name)!
    expect(added).toMatchObject({ partnerId: partner.id, status: 'temporarily closed', acceptingReferrals: false, isArchived: false })
    const row = page.getByRole('row').filter({ hasText: name })
    await row.getByRole('cell', { name: 'Temporarily closed' }).waitFor()
    await c.expectAccessible(page)

    await page.getByRole('button', { name: `Archive ${name}` }).click()
    await page.getByText('Service archived.').waitFor()
    expect((await servicesNow()).find((s) => s.id === added.id)?.isArchived).toBe(true)
    await c.done(page)
  })

  test("a partner admin, in Spanish, adds its own partner's service; it is offered no other partner", async () => {
    const [own, other] = c.partners
    const partnerAdmin = await c.member('partner_admin', own!.id)
    const name = unique('Ropero')
    const page = await c.open('/?lang=es#/admin/services')
    await c.logIn(page, partnerAdmin, 'es')
    await page.getByRole('heading', { name: 'Servicios', level: 2 }).waitFor()
    const form = page.getByRole('form', { name: 'Añadir servicio' })
    expect(await form.getByRole('option').filter({ hasText: other!.name }).count()).toBe(0)
    await form.getByLabel('Nombre').fill(name)
    await form.getByRole('button', { name: 'Añadir servicio' }).click()
    await page.getByText(`Servicio ${name} añadido.`).waitFor()
    expect((await servicesNow()).find((s) => s.name === name)).toMatchObject({
      partnerId: own!.id,
      status: 'active',
      acceptingReferrals: true,
    })
    await c.expectAccessible(page)
    await c.done(page)
  })
})
