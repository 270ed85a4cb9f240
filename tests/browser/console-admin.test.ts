import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SMTPServer } from 'smtp-server'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md "Administration": the partners, the organization's settings, its SMS number and its email
// settings with a test message (to an SMTP server on 127.0.0.1), and who sees these controls.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: { documentElement: { scrollWidth: number }; activeElement: { id: string } | null }

type Partner = { id: string; name: string; slaHours: number; keywords?: string[]; isDefault: boolean; isArchived: boolean }

/** An SMTP server that takes every message and keeps who it was for. */
async function startSmtpSink(): Promise<{ port: number; recipients: string[]; close(): Promise<void> }> {
  const recipients: string[] = []
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      stream.resume()
      stream.on('end', () => {
        recipients.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address))
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as { port: number }
  return { port, recipients, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.skipIf(!chromiumAvailable())('administration in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = (name: string) => `${name} ${crypto.randomUUID().slice(0, 6)}`
  const partnersNow = async () => (await c.api.call<Partner[]>('GET', '/api/partners?limit=100', { token: c.admin.token })).body
  const settingsNow = async () => (await c.api.call('GET', '/api/organizations/settings', { token: c.admin.token })).body

  async function openAdministration(who: Member, path = '/', width?: number): Promise<Page> {
    const page = await c.open(path, width ? { width } : {})
    await c.logIn(page, who)
    await page.getByRole('link', { name: 'Administration' }).click()
    await page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor()
    return page
  }

  test('an admin adds a partner with the keyboard alone, edits it, makes it the default and archives another', async () => {
    const name = unique('Legal aid')
    const other = unique('Clothing')
    const page = await openAdministration(c.admin)
    await page.getByRole('table').waitFor()
    await c.expectAccessible(page)

    // Adding: the keyboard alone, from the name field to Enter.
    await page.getByLabel('Name').last().focus()
    await page.keyboard.type(name)
    await page.keyboard.press('Tab')
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('24')
    await page.keyboard.press('Tab')
    await page.keyboard.type('lawyer, eviction')
    await page.keyboard.press('Enter')
    await page.getByText(`Partner ${name} added.`).waitFor()
    const added = (await partnersNow()).find((p) => p.name === name)!
    expect(added).toMatchObject({ slaHours: 24, keywords: ['lawyer', 'eviction'], isDefault: false, isArchived: false })
    await page.getByRole('cell', { name: 'lawyer, eviction' }).waitFor()

    // Editing opens below the table with the keyboard on its first field.
    await page.getByRole('button', { name: `Edit ${name}` }).press('Enter')
    const form = page.getByRole('form', { name: `Edit ${name}` })
    await form.waitFor()
    // The form is drawn before the keyboard is moved to it (an effect after the paint): wait for the move.
    await page.waitForFunction((id) => document.activeElement?.id === id, `partner-${added.id}-name`, { timeout: 10_000 })
    await page.keyboard.press('Tab')
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('12')
    await form.getByLabel('Routing keywords').fill('lawyer, eviction, court')
    await form.getByLabel(/Default partner/).check()
    await c.expectAccessible(page)
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved.').waitFor()
    const partners = await partnersNow()
    expect(partners.find((p) => p.name === name)).toMatchObject({
      slaHours: 12,
      keywords: ['lawyer', 'eviction', 'court'],
      isDefault: true,
    })
    expect(partners.filter((p) => p.isDefault).map((p) => p.name)).toEqual([name])

    // Archiving another; the default offers no archive (the service refuses it).
    expect((await c.api.call('POST', '/api/partners', { token: c.admin.token, body: { name: other, slaHours: 48 } })).status).toBe(201)
    await page.reload()
    await page.getByRole('button', { name: `Edit ${name}` }).click()
    expect(
      await page
        .getByRole('form', { name: `Edit ${name}` })
        .getByRole('button', { name: 'Archive' })
        .count(),
    ).toBe(0)
    await page.getByRole('button', { name: `Edit ${other}` }).click()
    await page
      .getByRole('form', { name: `Edit ${other}` })
      .getByRole('button', { name: 'Archive' })
      .click()
    await page.getByText('Partner archived.').waitFor()
    expect((await partnersNow()).find((p) => p.name === other)?.isArchived).toBe(true)
    await page.getByRole('row', { name: new RegExp(`${other}.*Archived`) }).waitFor()
    await c.done(page)
  })

  test('a bad value is said with its field, and nothing changes', async () => {
    const page = await openAdministration(c.admin)
    await page.getByRole('button', { name: 'Edit Housing help' }).click()
    const form = page.getByRole('form', { name: 'Edit Housing help' })
    await form.getByLabel('Routing keywords').fill(`fine, ${'x'.repeat(101)}`)
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByText(/Not done: .*\/keywords\/1/).waitFor()
    expect((await partnersNow()).find((p) => p.name === 'Housing help')?.keywords ?? []).toEqual([])
    await c.done(page)
  })

  test("the organization's settings are changed at phone width; the SMS number is shown; a slug in use is refused", async () => {
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
    const before = await settingsNow()
    await c.api.world.useCases.operations.setOrganizationPhoneNumber.execute(before.slug, phone)
    const page = await openAdministration(c.admin, '/', 375)
    await page.getByRole('link', { name: 'Organization' }).click()
    await page.getByRole('heading', { name: 'SMS number' }).waitFor()
    await page.getByText(phone).waitFor()
    await c.expectAccessible(page)
    // The page does not scroll sideways at phone width: only a table's own region may.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await page.getByLabel('Organization name').fill('Valley Food Bank')
    await page.getByLabel('Short code').fill('VALY')
    await page.getByLabel(/Audit trail kept/).fill('400')
    await page.getByLabel('App origins').fill('https://app.valley.example\nhttps://staff.valley.example')
    await page.getByLabel(/Daily digest hour/).fill('18')
    await page.getByLabel('Time zone').fill('America/Chicago')
    await page.getByLabel('Country').fill('gb')
    await page.getByLabel('Confirm requests to the person who asked').check()
    await page.getByLabel('What the organization does').fill('Groceries and hot meals for the valley')
    await page.getByLabel('Publish the directory of services').check()
    await page.getByLabel(/Erase people with no need activity/).fill('365')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Saved.').waitFor()
    expect(await settingsNow()).toMatchObject({
      name: 'Valley Food Bank',
      slug: before.slug,
      shortCode: 'VALY',
      auditRetentionDays: 400,
      appOrigins: ['https://app.valley.example', 'https://staff.valley.example'],
      formOrigins: [],
      digestHour: 18,
      timeZone: 'America/Chicago',
      defaultCountry: 'GB',
      confirmRequests: true,
      description: 'Groceries and hot meals for the valley',
      publishDirectory: true,
      phoneNumber: phone,
    })
    expect((await settingsNow()).constituentRetentionDays).toBe(365)
    expect((await settingsNow()).needTextRetentionDays).toBeUndefined()
    // An emptied box keeps everything again.
    await page.getByLabel(/Erase people with no need activity/).fill('')
    await page.getByRole('button', { name: 'Save settings' }).click()
    // ("Saved." is on the screen already: the answer is awaited through the API, within 5 s.)
    for (let i = 0; i < 100 && (await settingsNow()).constituentRetentionDays !== undefined; i++) await Bun.sleep(50)
    expect((await settingsNow()).constituentRetentionDays).toBeUndefined()

    // A refused save says so beside its button, each error beside its field and named in the list there; what
    // was typed stays, and the list's button takes the keyboard to the field.
    await page.getByLabel('Organization name').fill('Valley Food Bank and Pantry')
    await page.getByLabel('Country').fill('XX')
    await page.getByRole('button', { name: 'Save settings' }).click()
    const outcome = page.locator('.form-outcome')
    await outcome.getByText('Not saved. Correct these fields:').waitFor()
    expect(await page.getByLabel('Country').getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#org-default-country-error').count()).toBe(1)
    expect(await page.getByLabel('Organization name').inputValue()).toBe('Valley Food Bank and Pantry')
    await outcome.getByRole('button', { name: 'Country' }).click()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('org-default-country')
    await c.expectAccessible(page)
    await page.getByLabel('Country').fill('GB')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await outcome.getByText('Saved.').waitFor()
    expect(await page.getByLabel('Country').getAttribute('aria-invalid')).toBeNull()
    expect((await settingsNow()).name).toBe('Valley Food Bank and Pantry')

    const otherAdmin = await c.api.tokenFor(await c.api.world.otherOrganization(), 'org_admin')
    const otherSlug = (await c.api.call('GET', '/api/organizations/settings', { token: otherAdmin })).body.slug
    await page.getByLabel('Slug').fill(otherSlug)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByRole('status').filter({ hasText: 'Not done' }).waitFor()
    expect((await settingsNow()).slug).toBe(before.slug)
    await c.done(page)
  })

  test('email settings: a test email reaches the SMTP server; saved, only "key set" shows; a later test uses the key kept', async () => {
    const smtp = await startSmtpSink()
    try {
      const key = `smtp://desk:a-secret-password@127.0.0.1:${smtp.port}`
      const page = await openAdministration(c.admin, '/#/admin/organization')
      await page.getByRole('link', { name: 'Organization' }).click()
      const email = page.getByRole('form', { name: 'Email settings' })
      await email.waitFor()
      // What each key looks like, the shapes from the service's record of providers.
      const hint =
        'SMTP: smtp://user:password@host:587; Amazon SES: ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION; Postmark, SendGrid: the API key.'
      expect(await email.locator('#email-key-hint').textContent()).toBe(hint)
      // A key the service refuses: said under the field and beside the button, what was typed kept.
      await page.getByLabel('Key', { exact: true }).fill('not a url')
      await page.getByLabel('From email').fill('desk@example.org')
      await page.getByRole('button', { name: 'Save email settings' }).click()
      await email.getByRole('status').getByText('Not saved. Correct these fields:').waitFor()
      expect(await email.getByRole('status').getByRole('button').allTextContents()).toEqual(['Key'])
      expect(await email.locator('#email-key-error').textContent()).toBeTruthy()
      expect(await page.getByLabel('Key', { exact: true }).getAttribute('aria-invalid')).toBe('true')
      expect(await page.getByLabel('From email').inputValue()).toBe('desk@example.org')
      await c.expectAccessible(page)
      await page.getByLabel('Key', { exact: true }).fill(key)
      await page.getByLabel('From email').fill('desk@example.org')
      await page.getByLabel('From name').fill('Intake desk')
      await page.getByLabel('Send a test email to').fill('someone@example.org')
      await page.getByRole('button', { name: 'Send test email' }).click()
      await page.getByText('Test email sent to someone@example.org.').waitFor()
      expect(smtp.recipients).toEqual(['someone@example.org'])
      expect((await c.api.call('GET', '/api/organizations/settings/email', { token: c.admin.token })).status).toBe(404)

      await page.getByRole('button', { name: 'Save email settings' }).click()
      await page.getByText(/key set \(ending in /).waitFor()
      expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('')
      expect(await page.content()).not.toContain('a-secret-password')
      const stored = await c.api.call('GET', '/api/organizations/settings/email', { token: c.admin.token })
      expect(stored.body).toMatchObject({ provider: 'smtp', fromEmail: 'desk@example.org', fromName: 'Intake desk' })
      await c.expectAccessible(page)

      // A reload shows the settings without the key; a test with the key left empty uses the one kept.
      await page.reload()
      await page.getByText(/key set \(ending in /).waitFor()
      expect(await page.getByLabel('From email').inputValue()).toBe('desk@example.org')
      expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('')
      await page.getByLabel('Send a test email to').fill('someone-else@example.org')
      await page.getByRole('button', { name: 'Send test email' }).click()
      await page.getByText('Test email sent to someone-else@example.org.').waitFor()
      expect(smtp.recipients).toEqual(['someone@example.org', 'someone-else@example.org'])
      await c.done(page)
    } finally {
      await smtp.close()
    }
  })

  test('in Spanish, the administration and its sections are in Spanish', async () => {
    const page = await c.open('/?lang=es#/admin/organization')
    await page.getByLabel('Correo electrónico').fill(c.admin.email)
    await page.getByLabel('Contraseña').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click()
    await page.getByRole('heading', { name: 'Administración', level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'Número de SMS' }).waitFor()
    await page.getByRole('button', { name: 'Enviar correo de prueba' }).waitFor()
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('staff (members only) and a partner agent see none of these sections; a partner admin edits its own partner only', async () => {
    const visitors = [
      { who: await c.member('staff'), listsMembers: true },
      { who: await c.member('partner_agent', c.partners[0]!.id), listsMembers: false },
    ]
    for (const { who, listsMembers } of visitors) {
      const page = await c.open('/#/admin/organization')
      await c.logIn(page, who)
      await page.getByText('Your role may not do this.').waitFor()
      expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(listsMembers ? 1 : 0)
      expect(
        await page
          .getByRole('button')
          .filter({ hasText: /Save|Edit|Add|Send test/ })
          .count(),
      ).toBe(0)
      for (const section of ['partners', 'webhooks']) {
        await page.goto(`${c.api.url}/#/admin/${section}`)
        await page.getByText('Your role may not do this.').waitFor()
        expect(
          await page
            .getByRole('button')
            .filter({ hasText: /Save|Edit|Add/ })
            .count(),
        ).toBe(0)
      }
      await c.done(page)
    }

    const own = c.partners.find((p) => p.name === 'Food pantry')!
    const page = await openAdministration(await c.member('partner_admin', own.id))
    await page.getByRole('button', { name: `Edit ${own.name}` }).waitFor() // the partners are read after the heading
    // Partners, its partner's services and members: no tabs for the organization or webhooks.
    expect(await page.getByRole('navigation', { name: 'Administration' }).getByRole('link').allTextContents()).toEqual([
      'Partners',
      'Services',
      'Members',
    ])
    expect(await page.getByRole('button', { name: /^Edit / }).allTextContents()).toEqual([`Edit ${own.name}`])
    expect(await page.getByRole('form', { name: 'Add partner' }).count()).toBe(0)
    await page.getByRole('button', { name: `Edit ${own.name}` }).click()
    const form = page.getByRole('form', { name: `Edit ${own.name}` })
    expect(await form.getByLabel(/Default partner/).count()).toBe(0)
    expect(await form.getByRole('button', { name: 'Archive' }).count()).toBe(0)
    await form.getByLabel('SLA (hours)').fill('36')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved.').waitFor()
    expect((await partnersNow()).find((p) => p.id === own.id)?.slaHours).toBe(36)
    await c.expectAccessible(page)
    await c.done(page)
  })
})
