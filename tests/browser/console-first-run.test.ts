import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { FIRST_START_ADMIN_EMAIL } from '../../src/domain/members/member'
import { FIRST_ORGANIZATION_NAME } from '../../src/main/bootstrap'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md "First run": while the organization bears the first start's name, its admin chooses a
// password of its own, then gives its own name and email and the organization's name, country and time zone; the
// console shows PUBLIC_BASE_URL, and warns while it names localhost.
const OWN_PASSWORD = 'a password only I know'

/** The organization named as the first start names it, as after `intake serve` on an empty database. */
async function asAtFirstStart(c: ConsoleHarness) {
  const renamed = await c.api.call('PUT', '/api/organizations/settings', { token: c.admin.token, body: { name: FIRST_ORGANIZATION_NAME } })
  expect(renamed.status).toBe(200)
}

async function logInWith(page: Page, email: string, password = TEST_PASSWORD) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

describe.skipIf(!chromiumAvailable())('the first run, PUBLIC_BASE_URL on localhost', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness({ PUBLIC_BASE_URL: 'http://localhost:3000' })
  })
  afterAll(() => c?.stop())

  test('the admin chooses its own password, then the name; the address is shown with the warning; then the inbox', async () => {
    await asAtFirstStart(c)
    const admin = await c.member('org_admin')
    const page = await c.open('/')
    await logInWith(page, admin.email)
    await page.getByRole('heading', { name: 'Welcome: two things first' }).waitFor()
    expect(await page.locator('main').textContent()).toContain('http://localhost:3000')
    await page.getByText('works only on this computer').waitFor()
    await c.expectAccessible(page)

    await page.getByLabel('Current password').fill(TEST_PASSWORD)
    await page.getByLabel('New password').fill(OWN_PASSWORD)
    await page.getByRole('button', { name: 'Save password' }).click()
    await page.getByText('Your password is changed').waitFor()
    expect((await c.api.call('POST', '/api/auth/login', { body: { email: admin.email, password: TEST_PASSWORD } })).status).toBe(401)
    expect((await c.api.call('POST', '/api/auth/login', { body: { email: admin.email, password: OWN_PASSWORD } })).status).toBe(200)
    // The token of the session before the change is over.
    expect((await c.api.call('GET', '/api/profile', { token: admin.token })).status).toBe(401)
    await c.expectAccessible(page)

    await page.getByLabel('Your name').fill('Dana Director')
    await page.getByLabel('Organization name').fill('Valley Food Bank')
    // Where the organization is: the country its people's phones are read in, and its days.
    await page.getByLabel('Country').fill('gb')
    await page.getByLabel('Time zone').fill('Europe/London')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('heading', { name: 'Needs' }).waitFor()
    expect((await c.api.call('GET', '/api/organizations/settings', { token: c.admin.token })).body).toMatchObject({
      name: 'Valley Food Bank',
      defaultCountry: 'GB',
      timeZone: 'Europe/London',
    })
    // Done once: a reload goes on in the new session, straight to the inbox.
    await page.reload()
    await page.getByRole('table').waitFor()
    expect(await page.getByRole('heading', { name: 'Welcome: two things first' }).count()).toBe(0)
    await c.done(page)
  })

  test('a member who may not change the settings is not asked, even while the first run is due', async () => {
    await asAtFirstStart(c)
    const staff = await c.member('staff')
    const page = await c.open('/')
    await logInWith(page, staff.email)
    await page.getByRole('table').waitFor()
    expect(await page.getByRole('heading', { name: 'Welcome: two things first' }).count()).toBe(0)
    await c.done(page)
  })

  test('a wrong current password is said, and nothing changes', async () => {
    await asAtFirstStart(c)
    const admin = await c.member('org_admin')
    const page = await c.open('/')
    await logInWith(page, admin.email)
    await page.getByLabel('Current password').fill('not the printed one')
    await page.getByLabel('New password').fill(OWN_PASSWORD)
    await page.getByRole('button', { name: 'Save password' }).click()
    await page.getByText('This is not your current password').waitFor()
    expect((await c.api.call('GET', '/api/profile', { token: admin.token })).status).toBe(200)
    await c.expectAccessible(page)
    await c.done(page)
  })
})

describe.skipIf(!chromiumAvailable())('the first run, PUBLIC_BASE_URL a real address', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness({ PUBLIC_BASE_URL: 'http://intake.example.org' })
  })
  afterAll(() => c?.stop())

  test('the address is shown without a warning; an admin who chose its password already goes on to the name, in Spanish, and the default partner is named in Spanish', async () => {
    await asAtFirstStart(c)
    const admin = await c.member('org_admin')
    const page = await c.open('/?lang=es')
    await page.getByLabel('Correo electrónico').fill(admin.email)
    await page.getByLabel('Contraseña').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click()
    await page.getByRole('heading', { name: 'Bienvenida: primero, dos cosas' }).waitFor()
    expect(await page.locator('main').textContent()).toContain('http://intake.example.org')
    expect(await page.locator('.warning').count()).toBe(0)
    await page.getByRole('button', { name: 'Ya elegí la mía' }).click()
    await page.getByLabel('Su nombre').fill('Dana Directora')
    await page.getByLabel('Nombre de la organización').fill('Banco de Alimentos')
    await page.getByRole('button', { name: 'Guardar', exact: true }).click()
    await page.getByRole('heading', { name: 'Solicitudes' }).waitFor()
    const partners = await c.api.call<Array<{ name: string; isDefault: boolean }>>('GET', '/api/partners', { token: c.admin.token })
    expect(partners.body.find((partner) => partner.isDefault)?.name).toBe('Recepción general')
    await c.expectAccessible(page)
    await c.done(page)
  })
})

describe.skipIf(!chromiumAvailable())("the first run, the admin's own email", () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness({ PUBLIC_BASE_URL: 'http://intake.example.org' })
  })
  afterAll(() => c?.stop())

  const profileOf = async (token: string) => (await c.api.call<{ email: string; fullName?: string }>('GET', '/api/profile', { token })).body

  test("the first start's admin@example.org is replaced at once by the director's real address", async () => {
    await asAtFirstStart(c)
    const { world } = c.api
    // The first start's admin, with the test's password (the world's admin has it).
    const { passwordHash } = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!
    await world.member('org_admin', { email: FIRST_START_ADMIN_EMAIL, passwordHash, isConfirmed: true })
    const page = await c.open('/')
    await logInWith(page, FIRST_START_ADMIN_EMAIL)
    await page.getByRole('button', { name: 'I chose mine already' }).click()
    // The made-up address is no answer: the field starts empty.
    expect(await page.getByLabel('Your email').inputValue()).toBe('')
    await page.getByLabel('Your name').fill('Dana Director')
    await page.getByLabel('Your email').fill('dana@valley-food.example')
    await page.getByLabel('Organization name').fill('Valley Food Bank')
    await c.expectAccessible(page)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('heading', { name: 'Needs' }).waitFor()
    const login = await c.api.call<{ accessToken: string }>('POST', '/api/auth/login', {
      body: { email: 'dana@valley-food.example', password: TEST_PASSWORD },
    })
    expect(await profileOf(login.body.accessToken)).toMatchObject({ email: 'dana@valley-food.example', fullName: 'Dana Director' })
    await c.done(page)
  })

  test('a real address is changed once the new one confirms: the first run says a confirmation was sent', async () => {
    await asAtFirstStart(c)
    const admin = await c.member('org_admin')
    const page = await c.open('/')
    await logInWith(page, admin.email)
    await page.getByRole('button', { name: 'I chose mine already' }).click()
    await page.getByLabel('Your name').fill('Dana Director')
    await page.getByLabel('Your email').fill('dana.new@valley-food.example')
    await page.getByLabel('Organization name').fill('Valley Food Bank')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('A confirmation was sent to dana.new@valley-food.example').waitFor()
    await c.expectAccessible(page)
    expect((await profileOf(admin.token)).email).toBe(admin.email)
    await page.getByRole('button', { name: 'Go to the inbox' }).click()
    await page.getByRole('heading', { name: 'Needs' }).waitFor()
    await c.done(page)
  })
})
