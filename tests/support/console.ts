import { expect } from 'bun:test'
import type { Page } from 'playwright-core'
import { launchChromium, seriousViolations } from './browser'
import { startTestServer, type TestServer } from './http'
import { TEST_PASSWORD } from './world'

// The staff console's browser tests (docs/console.md): a server, a Chromium, an admin and two partners, and the
// steps every test takes.

export interface Member {
  email: string
  token: string
}

export interface ConsoleHarness {
  api: TestServer
  browser: Awaited<ReturnType<typeof launchChromium>>
  admin: Member
  partners: Array<{ id: string; name: string }>
  member(
    role: 'org_admin' | 'staff' | 'partner_admin' | 'partner_agent' | 'volunteer',
    partnerId?: string,
    more?: { fullName?: string; profiles?: Array<'sms_communicator' | 'duplicate_resolver' | 'pii_reader'> },
  ): Promise<Member>
  createNeed(partnerId: string, description: string): Promise<string>
  /** A new page at `path` with a fresh cookie jar (each test logs in itself), its requests watched. */
  open(path?: string, options?: { width?: number }): Promise<Page>
  /** Watches the requests of a page opened otherwise. */
  watch(page: Page): void
  /** Closes the page once sure that every request it made went to the service, and that it made some. */
  done(page: Page): Promise<void>
  expectAccessible(page: Page): Promise<void>
  /** Logs in on the login screen, in English or (`es`) Spanish. */
  logIn(page: Page, who: Member, language?: 'en' | 'es'): Promise<void>
  stop(): Promise<void>
}

const LOGIN_WORDS = {
  en: { email: 'Email', password: 'Password', logIn: 'Log in', main: 'Main' },
  es: { email: 'Correo electrónico', password: 'Contraseña', logIn: 'Iniciar sesión', main: 'Principal' },
}

/** `env` adds to the test server's configuration (a lower SMS limit, say). */
export async function startConsoleHarness(env: Record<string, string> = {}): Promise<ConsoleHarness> {
  const [api, browser] = await Promise.all([startTestServer(env), launchChromium()])
  const requested = new WeakMap<Page, string[]>()

  const member: ConsoleHarness['member'] = async (role, partnerId, more = {}) => {
    const token = await api.tokenFor(api.world, role, { ...more, ...(partnerId ? { partnerId } : {}) })
    return { token, email: (await api.call<{ email: string }>('GET', '/api/profile', { token })).body.email }
  }
  const admin = await member('org_admin')
  for (const name of ['Food pantry', 'Housing help']) {
    expect((await api.call('POST', '/api/partners', { token: admin.token, body: { name, slaHours: 48 } })).status).toBe(201)
  }
  const partners = (await api.call<Array<{ id: string; name: string }>>('GET', '/api/partners', { token: admin.token })).body

  function watch(page: Page) {
    const urls: string[] = []
    requested.set(page, urls)
    page.on('request', (request) => void urls.push(request.url()))
  }

  return {
    api,
    browser,
    admin,
    partners,
    member,
    watch,
    async createNeed(partnerId, description) {
      const created = await api.call<{ referenceNumber: string }>('POST', '/api/needs', {
        token: admin.token,
        body: { partnerId, customFields: { description } },
      })
      expect(created.status).toBe(201)
      return created.body.referenceNumber
    },
    async open(path = '/', options = {}) {
      const page = await browser.context.newPage()
      await browser.context.clearCookies()
      if (options.width) await page.setViewportSize({ width: options.width, height: 800 })
      watch(page)
      await page.goto(`${api.url}${path}`)
      return page
    },
    async done(page) {
      const urls = requested.get(page)!
      expect(urls.length).toBeGreaterThan(1)
      expect(urls.filter((url) => !url.startsWith(`${api.url}/`))).toEqual([])
      await page.close()
    },
    async expectAccessible(page) {
      expect(await seriousViolations(page)).toEqual([])
    },
    async logIn(page, who, language = 'en') {
      const words = LOGIN_WORDS[language]
      await page.getByLabel(words.email).fill(who.email)
      await page.getByLabel(words.password).fill(TEST_PASSWORD)
      await page.getByRole('button', { name: words.logIn }).click()
      await page.getByRole('navigation', { name: words.main }).waitFor()
    },
    async stop() {
      await browser.close()
      await api.stop()
    },
  }
}
