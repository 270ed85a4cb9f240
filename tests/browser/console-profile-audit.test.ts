import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'
import { TEST_PASSWORD } from '../support/world'

// docs/console.md "Administration": the member's own profile, and the audit trail.

type ProfileJson = { id: string; fullName?: string; phone?: string; language: string; notifications: Record<string, boolean> }
type EventJson = { requestId?: string }

describe.skipIf(!chromiumAvailable())('profile and audit trail in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const unique = () => crypto.randomUUID().slice(0, 8)
  const profileOf = async (token: string) => (await c.api.call<ProfileJson>('GET', '/api/profile', { token })).body
  async function loggedIn(who: Member, path: string, heading: string, level = 1): Promise<Page> {
    const page = await c.open(path)
    await c.logIn(page, who)
    await page.getByRole('heading', { name: heading, level }).waitFor()
    return page
  }

  test('a member changes its name, phone and mail; then its language, which the console speaks at once', async () => {
    const staff = await c.member('staff', undefined, { fullName: 'Sam Staff' })
    const page = await loggedIn(staff, '/#/profile', 'Profile')
    await c.expectAccessible(page)
    await page.getByLabel('Full name').fill('Samira Staff')
    await page.getByLabel('Phone', { exact: true }).fill('555')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByRole('alert').filter({ hasText: '/phone' }).waitFor()

    await page.getByLabel('Phone', { exact: true }).fill('+15550104321')
    await page.getByLabel('someone assigns me a need').uncheck()
    await page.getByLabel('the daily digest is ready').check()
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByText('Profile saved.').waitFor()
    expect(await profileOf(staff.token)).toMatchObject({
      fullName: 'Samira Staff',
      phone: '+15550104321',
      language: 'en',
      notifications: { newNeeds: false, assignedToMe: false, dailyDigest: true },
    })

    await page.getByLabel('Language of the console and of my emails').selectOption({ label: 'Español' })
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByRole('heading', { name: 'Perfil', level: 1 }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('es')
    expect((await profileOf(staff.token)).language).toBe('es')
    await page.getByRole('link', { name: 'Solicitudes' }).waitFor()
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('a member asks for a new email: a confirmation goes to it, and the email stays until it is followed', async () => {
    const staff = await c.member('staff')
    const page = await loggedIn(staff, '/#/profile', 'Profile')
    const wanted = `moved-${unique()}@example.org`
    await page.getByLabel('New email').fill(wanted)
    await page.getByRole('button', { name: 'Send the confirmation' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: `A confirmation was sent to ${wanted}` })
      .waitFor()
    await c.expectAccessible(page)
    expect((await c.api.call<{ email: string }>('GET', '/api/profile', { token: staff.token })).body.email).toBe(staff.email)

    // Another member's address is refused, and said.
    await page.getByLabel('New email').fill(c.admin.email)
    await page.getByRole('button', { name: 'Send the confirmation' }).click()
    await page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor()
    await c.done(page)
  })

  test('a member changes its password and goes on with the new one; a wrong current password is said', async () => {
    const volunteer = await c.member('volunteer', c.partners[0]!.id)
    const { email } = volunteer
    const page = await loggedIn(volunteer, '/#/profile', 'Profile')
    await page.getByLabel('Current password').fill('not my password at all')
    await page.getByLabel('New password').fill('a long new password')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('alert').filter({ hasText: 'currentPassword' }).waitFor()

    await page.getByLabel('Current password').fill(TEST_PASSWORD)
    await page.getByLabel('New password').fill('a long new password')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Your password is changed; other sessions have ended.').waitFor()
    const login = (password: string) => c.api.call('POST', '/api/auth/login', { body: { email, password } })
    expect((await login(TEST_PASSWORD)).status).toBe(401)
    expect((await login('a long new password')).status).toBe(200)
    expect((await c.api.call('GET', '/api/profile', { token: volunteer.token })).status).toBe(401)
    // The console logged in again with the new password: it goes on.
    await page.getByRole('link', { name: 'Needs' }).click()
    await page.getByRole('heading', { name: 'Needs', level: 1 }).waitFor()
    await c.done(page)
  })

  test('an admin filters the trail by member, action, record and time, pages it, and reads each request id', async () => {
    const noter = await c.member('staff', undefined, { fullName: `Noter ${unique()}` })
    const noterId = (await profileOf(noter.token)).id
    const reference = await c.createNeed(c.partners[0]!.id, 'Trail')
    for (let i = 0; i < 26; i++) {
      const note = await c.api.call('POST', `/api/needs/${reference}/notes`, { token: noter.token, body: { content: `Note ${i}` } })
      expect(note.status).toBe(201)
    }
    const events = (
      await c.api.call<EventJson[]>('GET', `/api/audit-events?memberId=${noterId}&action=add_note&limit=100`, { token: c.admin.token })
    ).body
    expect(events.length).toBe(26)
    const page = await loggedIn(c.admin, '/#/admin/audit', 'Audit trail', 2)
    await c.expectAccessible(page)

    const noterName = (await profileOf(noter.token)).fullName!
    await page.getByLabel('Member').selectOption({ label: noterName })
    await page.getByLabel('Action').selectOption({ label: 'Add note' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByText('Page 1 of 2 (26 in all)').waitFor()
    const requestIds = () => page.locator('tbody td:nth-child(6)').allTextContents()
    expect(await requestIds()).toEqual(events.slice(0, 25).map((event) => event.requestId!))
    await page.getByRole('link', { name: 'Next' }).click()
    await page.getByText('Page 2 of 2 (26 in all)').waitFor()
    expect(await requestIds()).toEqual([events[25]!.requestId!])
    await c.expectAccessible(page)

    // One record: the partner the harness created.
    await page.getByLabel('Member').selectOption({ label: 'Anyone' })
    await page.getByLabel('Action').selectOption({ label: 'All' })
    await page.getByLabel('Record type').selectOption({ label: 'Partner' })
    await page.getByLabel('Record id').fill(c.partners[0]!.id)
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByText('Page 1 of 1 (1 in all)').waitFor()
    expect(await page.locator('tbody td:nth-child(3)').allTextContents()).toEqual(['Create'])

    await page.getByLabel('Until').fill('2000-01-01T00:00')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByText('No events match.').waitFor()
    await page.getByLabel('Until').fill('')
    await page.getByLabel('Record id').fill('not-an-id')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByRole('alert').filter({ hasText: 'recordId' }).waitFor()
    await c.done(page)
  })

  test('the audit trail is the admin’s only', async () => {
    const staff = await c.member('staff')
    const page = await loggedIn(staff, '/#/admin/audit', 'Administration')
    await page.getByText('Your role may not do this.').waitFor()
    expect(await page.getByRole('link', { name: 'Audit trail' }).count()).toBe(0)
    expect(await page.getByRole('table').count()).toBe(0)
    await c.done(page)
  })
})
