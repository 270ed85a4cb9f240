import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { deliverUntil, fallbackEmailsTo } from '../adapters/http/helpers'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'

// docs/console.md "Administration": the members screen, as an org_admin and as a partner_admin.

/** The page's own document, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const document: {
  activeElement: { tagName: string; textContent: string | null } | null
  documentElement: { scrollWidth: number }
}
type MemberJson = { id: string; email: string; fullName?: string; role: string; partnerId?: string; profiles?: string[]; active: boolean }

describe.skipIf(!chromiumAvailable())('members in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = () => crypto.randomUUID().slice(0, 8)
  async function stored(email: string): Promise<MemberJson | undefined> {
    const listed = await c.api.call<MemberJson[]>('GET', '/api/members?limit=100', { token: c.admin.token })
    return listed.body.find((m) => m.email === email)
  }
  async function loggedIn(who: Member, path = '/#/admin/members', width?: number): Promise<Page> {
    const page = await c.open(path, width ? { width } : {})
    await c.logIn(page, who)
    await page.getByRole('heading', { name: 'Members', level: 2 }).waitFor()
    return page
  }
  const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

  test('an admin invites a member, changes its role and profiles, and sends the invitation again', async () => {
    const page = await loggedIn(c.admin)
    await c.expectAccessible(page)
    // The admin logged in just now; the list says when.
    expect(await row(page, c.admin.email).textContent()).not.toContain('Never')

    const email = `ines-${unique()}@example.org`
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Full name').fill('Inés Ruiz')
    // Each role and profile says what it allows, from the permissions table.
    await page.getByLabel('Role').selectOption({ label: 'Volunteer' })
    const role = page.locator('#invite-role-grants')
    expect(await role.textContent()).toContain('Volunteer: may read needs and add notes.')
    expect(await role.textContent()).toContain('May not create needs, assign, change and resolve needs, text people or look people up')
    expect(await page.getByRole('checkbox', { name: 'Sends texts' }).getAttribute('aria-describedby')).toBe(
      'invite-sms_communicator-grants',
    )
    expect(await page.locator('#invite-sms_communicator-grants').textContent()).toBe('Adds: text people.')
    await page.getByLabel('Role').selectOption({ label: 'Partner agent' })
    expect(await role.textContent()).toContain('Only the needs and people of their own partner.')
    await page.getByLabel('Partner', { exact: true }).selectOption({ label: c.partners[0]!.name })
    await page.getByLabel('Language of the invitation and their emails').selectOption('es')
    await c.expectAccessible(page)
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.getByText(`Invitation sent to ${email}.`).waitFor()
    // The next invitation is another person's: the address is emptied, the role, partner and language stay.
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('')
    expect(await page.getByLabel('Language of the invitation and their emails').inputValue()).toBe('es')
    expect(await page.getByLabel('Role').inputValue()).toBe('partner_agent')
    expect(await stored(email)).toMatchObject({ role: 'partner_agent', partnerId: c.partners[0]!.id, profiles: [] })
    const invited = row(page, email)
    await invited.waitFor()
    expect(await invited.textContent()).toContain('Invited')
    expect(await invited.textContent()).toContain('Never')

    await page.getByRole('button', { name: 'Change Inés Ruiz' }).click()
    await page.getByRole('heading', { name: 'Change Inés Ruiz' }).waitFor()
    await c.expectAccessible(page)
    await page.getByLabel('Role').first().selectOption({ label: 'Volunteer' })
    await page.getByLabel('Takes intake').first().check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Inés Ruiz changed.').waitFor()
    expect(await stored(email)).toMatchObject({ role: 'volunteer', partnerId: c.partners[0]!.id, profiles: ['intake_staff'] })

    await page.getByRole('button', { name: 'Change Inés Ruiz' }).click()
    await page.getByRole('button', { name: 'Send the invitation again' }).click()
    await page.getByText(`A new invitation is on its way to ${email}.`).waitFor()
    await c.done(page)
  })

  test("an admin changes a member's name at once and its email once the new address confirms it", async () => {
    const member = await c.member('staff', undefined, { fullName: 'Omar Oldname' })
    const page = await loggedIn(c.admin)
    await page.getByRole('button', { name: 'Change Omar Oldname' }).click()
    await page.getByRole('heading', { name: 'Change Omar Oldname' }).waitFor()
    const wanted = `omar-${unique()}@example.org`
    await page.locator('#change-fullName').fill('Omar Newname')
    await page.locator('#change-email').fill(wanted)
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText(`Omar Newname changed. A confirmation was sent to ${wanted}`).waitFor()
    await c.expectAccessible(page)
    expect(await stored(member.email)).toMatchObject({ fullName: 'Omar Newname' })

    const mail = await deliverUntil(c.api, () => fallbackEmailsTo(c.api, wanted).find((m) => m.template === 'email_change'))
    const link = new URL(/https?:\/\/\S+\/confirm-email\?token=\S+/.exec(mail.text)![0])
    const confirmation = await c.open(`${link.pathname}${link.search}`)
    await c.expectAccessible(confirmation)
    await confirmation.getByRole('button', { name: 'Confirm my new email' }).click()
    await confirmation.getByText(`Your email is now ${wanted}.`).waitFor()
    await c.expectAccessible(confirmation)
    expect(await stored(wanted)).toMatchObject({ fullName: 'Omar Newname' })
    await confirmation.close()
    await c.done(page)
  })

  test('deactivating and reactivating ask first, naming the person; the keyboard goes to the question', async () => {
    const leaving = await c.member('staff', undefined, { fullName: `Leaving ${unique()}` })
    const name = (await c.api.call<{ fullName: string }>('GET', '/api/profile', { token: leaving.token })).body.fullName
    const page = await loggedIn(c.admin)

    await page.getByRole('button', { name: `Change ${name}` }).click()
    await page.getByRole('button', { name: 'Deactivate…' }).click()
    await page.getByRole('heading', { name: `Deactivate ${name}?` }).waitFor()
    await page.waitForFunction((question) => document.activeElement?.textContent === question, `Deactivate ${name}?`)
    await c.expectAccessible(page)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deactivate')
    await page.keyboard.press('Enter')
    await page.getByText(`${name} is deactivated.`).waitFor()
    expect((await stored(leaving.email))?.active).toBe(false)
    expect((await c.api.call('GET', '/api/profile', { token: leaving.token })).status).toBe(401)
    expect(await row(page, name).count()).toBe(0)

    await page.getByLabel('Show').selectOption({ label: 'Deactivated' })
    await row(page, name).waitFor()
    await page.getByRole('button', { name: `Change ${name}` }).click()
    await page.getByRole('button', { name: 'Reactivate…' }).click()
    await page.getByRole('heading', { name: `Reactivate ${name}?` }).waitFor()
    await page.getByRole('button', { name: 'Reactivate', exact: true }).click()
    await page.getByText(`${name} can log in again.`).waitFor()
    expect((await stored(leaving.email))?.active).toBe(true)
    await c.done(page)
  })

  test('a partner_admin at phone width sees its own partner’s members, and gives only its partner’s roles and its own profiles', async () => {
    const [own, other] = c.partners
    const ownAgent = await c.member('partner_agent', own!.id, { fullName: `Own ${unique()}` })
    const otherAgent = await c.member('partner_agent', other!.id, { fullName: `Other ${unique()}` })
    const partnerAdmin = await c.member('partner_admin', own!.id, { profiles: ['pii_reader'] })
    const page = await loggedIn(partnerAdmin, '/#/admin/members', 375)
    await c.expectAccessible(page)
    await row(page, ownAgent.email).waitFor()
    expect(await row(page, otherAgent.email).count()).toBe(0)
    const partners = await page.locator('tbody td:nth-child(3)').allTextContents()
    expect(new Set(partners)).toEqual(new Set([own!.name]))
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    // Only the roles it may give, for its own partner, and only the profile it holds.
    expect(await page.getByLabel('Role').locator('option').allTextContents()).toEqual(['Partner agent', 'Volunteer'])
    expect(await page.getByLabel('Partner', { exact: true }).count()).toBe(0)
    expect(await page.getByRole('group', { name: 'Profiles' }).getByRole('checkbox').count()).toBe(1)
    await page.getByLabel('Reads personal details').check()
    // Itself it may not change.
    expect(await page.getByRole('button', { name: /^Change / }).count()).toBeGreaterThan(0)
    expect(await row(page, partnerAdmin.email).getByRole('button').count()).toBe(0)

    const email = `pa-${unique()}@example.org`
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.getByText(`Invitation sent to ${email}.`).waitFor()
    expect(await stored(email)).toMatchObject({ role: 'volunteer', partnerId: own!.id, profiles: ['pii_reader'] })
    await c.done(page)
  })

  test('staff list members but change none; agents have no members screen', async () => {
    const staff = await c.member('staff')
    const page = await loggedIn(staff)
    await row(page, c.admin.email).waitFor()
    expect(await page.getByRole('button', { name: /^Change / }).count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'Invite a member' }).count()).toBe(0)
    await c.done(page)

    const agent = await c.member('partner_agent', c.partners[0]!.id)
    const agentPage = await c.open('/')
    await c.logIn(agentPage, agent)
    expect(await agentPage.getByRole('link', { name: 'Administration' }).count()).toBe(0)
    await agentPage.goto(`${c.api.url}/#/admin/members`)
    await agentPage.getByText('Your role may not do this.').waitFor()
    await c.done(agentPage)
  })
})
