import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable, launchChromium, seriousViolations } from '../support/browser'
import { startTestServer, type TestServer } from '../support/http'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md: the staff console in a real browser, on the API only, with the keyboard, axe-core on every screen.

/** The page's own document and window, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { activeElement: { tagName: string; textContent: string | null; id: string } | null; documentElement: { scrollWidth: number } }

interface Member {
  email: string
  token: string
}

describe.skipIf(!chromiumAvailable())('the staff console in Chromium', () => {
  let api: TestServer
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let admin: Member
  let partners: Array<{ id: string; name: string }>
  /** Every address each page asked for, to show none leaves the service. */
  const requested = new WeakMap<Page, string[]>()

  async function member(role: 'org_admin' | 'staff' | 'partner_agent', partnerId?: string): Promise<Member> {
    const token = await api.tokenFor(api.world, role, partnerId ? { partnerId } : {})
    return { token, email: (await api.call<{ email: string }>('GET', '/api/profile', { token })).body.email }
  }

  async function createNeed(partnerId: string, description: string): Promise<string> {
    const created = await api.call<{ referenceNumber: string }>('POST', '/api/needs', { token: admin.token, body: { partnerId, customFields: { description } } })
    expect(created.status).toBe(201)
    return created.body.referenceNumber
  }

  beforeAll(async () => {
    ;[api, browser] = await Promise.all([startTestServer(), launchChromium()])
    admin = await member('org_admin')
    for (const name of ['Food pantry', 'Housing help']) {
      expect((await api.call('POST', '/api/partners', { token: admin.token, body: { name, slaHours: 48 } })).status).toBe(201)
    }
    partners = (await api.call<Array<{ id: string; name: string }>>('GET', '/api/partners', { token: admin.token })).body
  })
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  async function open(path = '/', options: { width?: number } = {}): Promise<Page> {
    const page = await browser.context.newPage()
    // A fresh cookie jar: each test logs in itself.
    await browser.context.clearCookies()
    if (options.width) await page.setViewportSize({ width: options.width, height: 800 })
    watch(page)
    await page.goto(`${api.url}${path}`)
    return page
  }

  function watch(page: Page) {
    const urls: string[] = []
    requested.set(page, urls)
    page.on('request', (request) => void urls.push(request.url()))
  }

  /** Closes the page once sure that every request it made went to the service, and that it made some. */
  async function done(page: Page) {
    const urls = requested.get(page)!
    expect(urls.length).toBeGreaterThan(1)
    expect(urls.filter((url) => !url.startsWith(`${api.url}/`))).toEqual([])
    await page.close()
  }

  async function expectAccessible(page: Page) {
    expect(await seriousViolations(page)).toEqual([])
  }

  async function logIn(page: Page, who: Member) {
    await page.getByLabel('Email').fill(who.email)
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('navigation', { name: 'Main' }).waitFor()
  }

  const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent ?? '', id: document.activeElement?.id ?? '' }))

  /** Presses Tab until `matches` says the focused element is the one wanted. */
  async function tabTo(page: Page, matches: (element: { tag: string; text: string; id: string }) => boolean, what: string) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab')
      if (matches(await focused(page))) return
    }
    throw new Error(`the keyboard never reached ${what}`)
  }

  test('keyboard only: log in, the inbox, a need, its status changed', async () => {
    const reference = await createNeed(partners[0]!.id, 'Rent is due on the first')
    const page = await open()
    await expectAccessible(page)
    await tabTo(page, (e) => e.id === 'email', 'the email field')
    await page.keyboard.type(admin.email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(TEST_PASSWORD)
    await page.keyboard.press('Enter')
    await page.getByRole('table').waitFor()
    await expectAccessible(page)

    await tabTo(page, (e) => e.tag === 'A' && e.text === reference, `the link of ${reference}`)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    await expectAccessible(page)

    await tabTo(page, (e) => e.id === 'status', 'the status field')
    await page.keyboard.press('ArrowDown') // New → In progress
    await tabTo(page, (e) => e.tag === 'BUTTON' && e.text === 'Change status', 'the status button')
    await page.keyboard.press('Enter')
    await page.getByText('Status changed.').waitFor()
    expect((await api.call('GET', `/api/needs/${reference}`, { token: admin.token })).body.status).toBe('IN_PROGRESS')
    await page.getByRole('listitem').filter({ hasText: 'Status: New → In progress' }).waitFor()
    expect(await page.getByLabel('Status').inputValue()).toBe('IN_PROGRESS')
    await done(page)
  })

  test('the inbox filters by partner, status and "Assigned to me", and pages by X-Total-Count', async () => {
    const partner = (await api.call<{ id: string }>('POST', '/api/partners', { token: admin.token, body: { name: `Paging ${crypto.randomUUID().slice(0, 8)}`, slaHours: 24 } })).body
    const references: string[] = []
    for (let i = 0; i < 27; i++) references.push(await createNeed(partner.id, `Need number ${i}`))
    const myId = (await api.call<{ id: string }>('GET', '/api/profile', { token: admin.token })).body.id
    expect((await api.call('PUT', `/api/needs/${references[3]}`, { token: admin.token, body: { status: 'IN_PROGRESS' } })).status).toBe(200)
    expect((await api.call('PUT', `/api/needs/${references[5]}`, { token: admin.token, body: { assignedTo: myId } })).status).toBe(200)
    const rows = (page: Page) => page.locator('tbody tr td:first-child').allTextContents()

    const page = await open('/')
    await logIn(page, admin)
    await page.getByRole('table').waitFor()
    await page.getByLabel('Partner').selectOption(partner.id)
    await page.getByText('Page 1 of 2 (27 needs)').waitFor()
    expect(await rows(page)).toEqual(references.slice(2).reverse())
    await page.getByRole('link', { name: 'Next' }).click()
    await page.getByText('Page 2 of 2 (27 needs)').waitFor()
    expect(await rows(page)).toEqual(references.slice(0, 2).reverse())
    await expectAccessible(page)

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
    await done(page)
  })

  test('a new need shows its reference number, which the API knows', async () => {
    const page = await open('/')
    await logIn(page, admin)
    await page.getByRole('button', { name: 'New need' }).click()
    await page.getByRole('heading', { name: 'New need' }).waitFor()
    await expectAccessible(page)
    await page.getByLabel('Partner').selectOption({ label: partners[1]!.name })
    await page.getByLabel('Description').fill('The heating broke down')
    await page.getByLabel('First name').fill('Ada')
    await page.getByRole('button', { name: 'Create' }).click()
    const reference = (await page.locator('.reference').textContent())!
    expect(reference).toMatch(/^[A-Z]+-[0-9]+$/)
    await expectAccessible(page)
    const need = await api.call('GET', `/api/needs/${reference}`, { token: admin.token })
    expect({ partnerId: need.body.partnerId, customFields: need.body.customFields }).toEqual({ partnerId: partners[1]!.id, customFields: { description: 'The heating broke down', firstName: 'Ada' } })
    await done(page)
  })

  test('a need is assigned to oneself, and a note added shows in its timeline; both are stored', async () => {
    const reference = await createNeed(partners[0]!.id, 'Food for a family of four')
    const page = await open(`/#/needs/${reference}`)
    await logIn(page, admin)
    await page.getByLabel('Note', { exact: true }).fill('Called back, delivery on Tuesday')
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.getByText('Note added.').waitFor()
    await page.locator('.timeline .content', { hasText: 'Called back, delivery on Tuesday' }).waitFor()
    const interactions = await api.call<Array<{ content: string }>>('GET', `/api/needs/${reference}/interactions`, { token: admin.token })
    expect(interactions.body.map((i) => i.content)).toEqual(['Called back, delivery on Tuesday'])

    await page.getByRole('button', { name: 'Assign to me' }).click()
    await page.getByText('Assigned to you.').waitFor()
    const myId = (await api.call<{ id: string }>('GET', '/api/profile', { token: admin.token })).body.id
    expect((await api.call('GET', `/api/needs/${reference}`, { token: admin.token })).body.assignedTo).toBe(myId)
    expect(await page.getByRole('button', { name: 'Assign to me' }).count()).toBe(0)
    await expectAccessible(page)
    await done(page)
  })

  test('a reload keeps the session (the cookie); a revoked session returns to the login, and the login to the same place', async () => {
    const reference = await createNeed(partners[0]!.id, 'A ride to the clinic')
    const page = await open(`/#/needs/${reference}`)
    await logIn(page, admin)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()

    // The session is revoked elsewhere: its refresh token presented twice (reuse ends the whole session).
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'intake_refresh')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/session' })
    for (let i = 0; i < 2; i++) {
      await fetch(`${api.url}/api/auth/session/refresh`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `intake_refresh=${cookie.value}` } })
    }
    await page.getByLabel('Note', { exact: true }).fill('Written after the session ended')
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.getByText('Your session ended').waitFor()
    await expectAccessible(page)
    await logIn(page, admin)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    await done(page)
  })

  test('logging out ends the session: the login shows, also after a reload, and its cookie is no longer valid', async () => {
    const page = await open('/')
    await logIn(page, admin)
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'intake_refresh')!
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    await page.reload()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    expect((await browser.context.cookies()).find((c) => c.name === 'intake_refresh')).toBeUndefined()
    const refresh = await fetch(`${api.url}/api/auth/session/refresh`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `intake_refresh=${cookie.value}` } })
    expect(refresh.status).toBe(401)
    await done(page)
  })

  test('tabs opened at once each go on with the session: their renewals take turns, so none reuses a used cookie', async () => {
    const first = await open('/')
    await logIn(first, admin)
    const tabs = await Promise.all(
      [1, 2, 3].map(async () => {
        const tab = await browser.context.newPage()
        watch(tab)
        await tab.goto(`${api.url}/#/needs`)
        return tab
      }),
    )
    for (const tab of [...tabs, first]) {
      await tab.reload()
      await tab.getByRole('table').or(tab.getByRole('button', { name: 'Log in' })).waitFor()
      expect(await tab.getByRole('table').count()).toBe(1)
    }
    for (const tab of [...tabs, first]) await done(tab)
  })

  test('the access token is renewed before it lapses', async () => {
    const page = await browser.context.newPage()
    await browser.context.clearCookies()
    watch(page)
    await page.clock.install()
    await page.goto(`${api.url}/`)
    await logIn(page, admin)
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/auth/session/refresh') && response.status() === 200)
    const lifetime = (await api.call<{ expiresIn: number }>('POST', '/api/auth/login', { body: { email: admin.email, password: TEST_PASSWORD } })).body.expiresIn
    await page.clock.runFor(lifetime * 1000)
    await refreshed
    await page.getByRole('link', { name: 'Constituents' }).click()
    await page.getByRole('heading', { name: 'Constituents' }).waitFor()
    await expectAccessible(page)
    await done(page)
  })

  test('"Forgot password?" asks for the reset link', async () => {
    const page = await open()
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.getByLabel('Email').fill(admin.email)
    await page.getByRole('button', { name: 'Send the link' }).click()
    await page.getByRole('status').filter({ hasText: 'a link is on its way' }).waitFor()
    await expectAccessible(page)
    await done(page)
  })

  test('a partner agent sees only its partner\'s needs, at phone width, in Spanish', async () => {
    const own = await createNeed(partners[1]!.id, 'Own partner need')
    const other = await createNeed(partners[0]!.id, 'Other partner need')
    const agent = await member('partner_agent', partners[1]!.id)
    const page = await open('/?lang=es', { width: 375 })
    await page.getByLabel('Correo electrónico').fill(agent.email)
    await page.getByLabel('Contraseña').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click()
    await page.getByRole('table').waitFor()
    const references = await page.locator('tbody tr td:first-child').allTextContents()
    expect(references).toContain(own)
    expect(references).not.toContain(other)
    const expected = (await api.call<unknown[]>('GET', '/api/needs', { token: agent.token })).headers.get('x-total-count')
    expect(await page.getByText(`(${expected} ${expected === '1' ? 'solicitud' : 'solicitudes'})`).count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await expectAccessible(page)

    await page.getByLabel('Número de referencia').fill(other)
    await page.getByRole('button', { name: 'Abrir' }).click()
    await page.getByText('Ninguna solicitud tiene este número').waitFor()
    await expectAccessible(page)

    await page.getByRole('link', { name: 'Solicitudes' }).click()
    await page.getByRole('link', { name: own }).click()
    await page.getByRole('heading', { name: `Solicitud ${own}` }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await expectAccessible(page)
    await done(page)
  })
})
