import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md "Sessions": logging in, out and back, renewals, lapsed and revoked sessions, in a real browser.

describe.skipIf(!chromiumAvailable())('console sessions in Chromium', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  test('a reload keeps the session (the cookie); a revoked session returns to the login, and the login to the same place', async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'A ride to the clinic')
    const page = await c.open(`/#/needs/${reference}`)
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()

    // The session is revoked elsewhere: its refresh token used, its successor used, then the token again
    // (a reuse ends the whole session).
    const cookie = (await c.browser.context.cookies()).find(({ name }) => name === 'intake_refresh')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/session' })
    const renewWith = (value: string) =>
      fetch(`${c.api.url}/api/auth/session/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `intake_refresh=${value}` },
      })
    const successor = (await renewWith(cookie.value)).headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!
    await renewWith(successor)
    expect((await renewWith(cookie.value)).status).toBe(401)
    await page.getByLabel('Note', { exact: true }).fill('Written after the session ended')
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.getByText('Your session ended').waitFor()
    await c.expectAccessible(page)
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    await c.done(page)
  })

  test('logging out ends the session: the login shows, also after a reload, and its cookie is no longer valid', async () => {
    const page = await c.open('/')
    await c.logIn(page, c.admin)
    const cookie = (await c.browser.context.cookies()).find(({ name }) => name === 'intake_refresh')!
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    await page.reload()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    expect((await c.browser.context.cookies()).find(({ name }) => name === 'intake_refresh')).toBeUndefined()
    const refresh = await fetch(`${c.api.url}/api/auth/session/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `intake_refresh=${cookie.value}` },
    })
    expect(refresh.status).toBe(401)
    await c.done(page)
  })

  test('tabs opened at once each go on with the session: their renewals take turns, so none reuses a used cookie', async () => {
    const first = await c.open('/')
    await c.logIn(first, c.admin)
    const tabs = await Promise.all(
      [1, 2, 3].map(async () => {
        const tab = await c.browser.context.newPage()
        c.watch(tab)
        await tab.goto(`${c.api.url}/#/needs`)
        return tab
      }),
    )
    for (const tab of [...tabs, first]) {
      await tab.reload()
      await tab
        .getByRole('table')
        .or(tab.getByRole('button', { name: 'Log in' }))
        .waitFor()
      expect(await tab.getByRole('table').count()).toBe(1)
    }
    for (const tab of [...tabs, first]) await c.done(tab)
  })

  test('a reload in the middle of a renewal keeps the session: the renewal whose answer was lost is answered again', async () => {
    const page = await c.open('/#/needs')
    await c.logIn(page, c.admin)
    await page.getByRole('table').waitFor()
    // The next renewal reaches the service, which rotates the cookie, but its answer never reaches the page.
    const lost = Promise.withResolvers<number>()
    await page.route(
      '**/api/auth/session/refresh',
      async (route) => {
        const request = route.request()
        const headers = Object.fromEntries(
          Object.entries(await request.allHeaders()).filter(
            ([name]) => !['host', 'content-length'].includes(name) && !name.startsWith(':'),
          ),
        )
        const renewed = await fetch(request.url(), { method: 'POST', headers, body: request.postData() ?? '' })
        // Aborted before the test reloads again: an abort racing the next navigation is left to chance.
        await route.abort()
        lost.resolve(renewed.status)
      },
      { times: 1 },
    )
    await page.reload()
    expect(await lost.promise).toBe(200)
    await page.reload()
    await page.getByRole('table').waitFor()
    await c.done(page)
  })

  test('the access token is renewed before it lapses', async () => {
    const page = await c.browser.context.newPage()
    await c.browser.context.clearCookies()
    c.watch(page)
    await page.clock.install()
    await page.goto(`${c.api.url}/`)
    await c.logIn(page, c.admin)
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/auth/session/refresh') && response.status() === 200)
    const lifetime = (
      await c.api.call<{ expiresIn: number }>('POST', '/api/auth/login', { body: { email: c.admin.email, password: TEST_PASSWORD } })
    ).body.expiresIn
    await page.clock.runFor(lifetime * 1000)
    await refreshed
    await page.getByRole('link', { name: 'Constituents' }).click()
    await page.getByRole('heading', { name: 'Constituents' }).waitFor()
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('"Forgot password?" asks for the reset link', async () => {
    const page = await c.open()
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.getByLabel('Email').fill(c.admin.email)
    await page.getByRole('button', { name: 'Send the link' }).click()
    await page.getByRole('status').filter({ hasText: 'a link is on its way' }).waitFor()
    await c.expectAccessible(page)
    await c.done(page)
  })
})
