import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { chromiumAvailable, launchChromium, seriousViolations } from '../support/browser'
import { startTestServer, type TestServer } from '../support/http'
import { deliverUntil, invitationIn, fallbackEmailsTo, fallbackInvitationTo } from '../adapters/http/helpers'

// docs/api/pages.md "Pages" in a real browser: Debian's Chromium through playwright-core, JavaScript as the pages
// have it (none of theirs), forms filled with the keyboard, axe-core on every page.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { activeElement: { id: string; tagName: string } | null }

const NEW_PASSWORD = 'a brand new long passphrase'

describe.skipIf(!chromiumAvailable())('pages in Chromium', () => {
  let api: TestServer
  let adminToken: string
  let slug: string
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let context: BrowserContext

  beforeAll(async () => {
    ;[api, browser] = await Promise.all([startTestServer(), launchChromium()])
    context = browser.context
    adminToken = await api.tokenFor(api.world, 'org_admin')
    slug = (await api.world.repositories.organizations.findById(api.world.organizationId))!.slug
  })
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  async function open(path: string): Promise<Page> {
    const page = await context.newPage()
    await page.goto(`${api.url}${path}`)
    return page
  }

  async function expectAccessible(page: Page) {
    expect(await seriousViolations(page)).toEqual([])
  }

  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '')

  /** Tabs forward until the submit button has the focus, never through the hidden honeypot. */
  async function tabToSubmit(page: Page) {
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab')
      const focused = await page.evaluate(() => ({ tag: document.activeElement?.tagName, id: document.activeElement?.id }))
      expect(focused.id).not.toBe('website')
      if (focused.tag === 'BUTTON') return
    }
    throw new Error('the submit button never got the focus')
  }

  test('the intake form, filled and sent with the keyboard only, shows the reference number of a need that exists', async () => {
    const page = await open(`/intake/${slug}`)
    await expectAccessible(page)
    await page.keyboard.press('Tab') // the language switch
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('description')
    await page.keyboard.type('Our electricity will be cut off on Friday')
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('firstName')
    await page.keyboard.type('Maria')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('phone')
    await page.keyboard.type('503 555 0199')
    await tabToSubmit(page)
    await Promise.all([page.waitForURL(`**/intake/${slug}`), page.keyboard.press('Enter')])

    const reference = (await page.locator('.reference').textContent())!
    expect(reference).toMatch(/^REQ-[0-9]+$/)
    await expectAccessible(page)
    const need = await api.call<{ customFields: Record<string, string> }>('GET', `/api/needs/${reference}`, { token: adminToken })
    expect(need.body.customFields).toEqual({
      description: 'Our electricity will be cut off on Friday',
      firstName: 'Maria',
      phone: '+15035550199',
    })
    await page.close()
  })

  test('field errors show next to their fields, in Spanish after the switch, and the page stays accessible', async () => {
    const page = await open(`/intake/${slug}`)
    await Promise.all([page.waitForURL('**?lang=es'), page.getByRole('link', { name: 'Español' }).click()])
    expect(await page.locator('h1').textContent()).toBe('Pida ayuda')
    await page.getByLabel('Código postal (ZIP)').fill('123')
    await page.locator('#addressZip').focus()
    await tabToSubmit(page)
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')])
    await page.waitForSelector('#description-error')

    expect(await page.locator('#description-error').textContent()).toBe('Díganos con qué necesita ayuda.')
    expect(await page.locator('#addressZip-error').textContent()).toBe('Escriba un código postal de cinco dígitos.')
    expect(await page.locator('#description').getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#addressZip').inputValue()).toBe('123')
    expect(await page.getByRole('alert').textContent()).toContain('aún no se envió')
    await expectAccessible(page)
    await page.close()
  })

  test('an unknown organization is an accessible 404 page', async () => {
    const page = await context.newPage()
    const response = await page.goto(`${api.url}/intake/no-such-organization`)
    expect(response!.status()).toBe(404)
    await expectAccessible(page)
    await page.close()
  })

  test('an invitation is accepted from the emailed link', async () => {
    const address = `invited-${crypto.randomUUID()}@example.org`
    expect((await api.call('POST', '/api/members', { token: adminToken, body: { email: address, role: 'staff' } })).status).toBe(201)
    const link = new URL(invitationIn((await fallbackInvitationTo(api, address)).text).link)
    const page = await open(`${link.pathname}${link.search}`)
    await expectAccessible(page)
    expect(await page.getByText(`invited ${address}`).count()).toBe(1)
    await page.getByLabel('New password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Save the password' }).click()
    // The console opens with the new member logged in: no second login.
    await page.getByRole('navigation', { name: 'Main' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/')
    await expectAccessible(page)
    expect((await api.call('POST', '/api/auth/login', { body: { email: address, password: NEW_PASSWORD } })).status).toBe(200)
    await page.close()
  })

  test('a password is reset from the link in the email, after a too-short one is refused next to the field', async () => {
    const email = (await api.call<{ email: string }>('GET', '/api/profile', { token: await api.tokenFor(api.world, 'staff') })).body.email
    expect((await api.call('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(202)
    const mail = await deliverUntil(api, () => fallbackEmailsTo(api, email).at(-1), `the reset email to ${email}`)
    const link = new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(mail.text)![0])
    const page = await open(`${link.pathname}${link.search}`)
    await expectAccessible(page)

    // The browser's own check (minlength) would stop a short password before it is sent: post it anyway.
    await page.locator('#password').evaluate((input) => input.removeAttribute('minlength'))
    await page.getByLabel('New password').fill('short')
    await Promise.all([page.waitForURL('**/reset-password'), page.getByRole('button', { name: 'Save the password' }).click()])
    expect(await page.locator('#password-error').textContent()).toContain('not valid')
    await expectAccessible(page)

    await page.getByLabel('New password').fill(NEW_PASSWORD)
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Save the password' }).click()])
    await page.getByRole('status').waitFor()
    expect(await page.getByRole('status').textContent()).toContain('log in with the new password')
    expect((await api.call('POST', '/api/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(200)
    await page.close()
  })

  test('a forgotten password: the page asks for the email with the keyboard alone, in either language, and mails the link', async () => {
    const email = (await api.call<{ email: string }>('GET', '/api/profile', { token: await api.tokenFor(api.world, 'staff') })).body.email
    const page = await open('/forgot-password')
    await expectAccessible(page)
    await page.keyboard.press('Tab') // the language switch
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toBe('email')
    await page.keyboard.type(email)
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')])
    await page.getByRole('status').waitFor()
    await expectAccessible(page)
    const mail = await deliverUntil(
      api,
      () => fallbackEmailsTo(api, email).find((m) => m.subject.startsWith('Choose a new password')),
      `the reset email to ${email}`,
    )
    expect(mail.text).toContain('/reset-password?token=')

    const spanish = await open('/forgot-password?lang=es')
    expect(await spanish.getByRole('heading', { level: 1 }).textContent()).toBe('¿Olvidó su contraseña?')
    await expectAccessible(spanish)
    await Promise.all([page.close(), spanish.close()])
  })
})
