import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Where the code is" (data.ts): the console reads the partners, the members and a need's notes
// page after page (docs/api/conventions.md "Lists": 100 a page at most), so nothing past the first page is missing.

const PAST_ONE_PAGE = 105

describe.skipIf(!chromiumAvailable())('the staff console past the first page of a list', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  /** The first item of a list's second page of 100, as the API orders it. */
  async function onSecondPage<T>(path: string): Promise<T> {
    const page = await c.api.call<T[]>('GET', `${path}?page=2&limit=100`, { token: c.admin.token })
    expect(page.status).toBe(200)
    return page.body[0]!
  }

  test(`with ${PAST_ONE_PAGE} partners and members, a need's partner and assignee from the second page are named`, async () => {
    for (let n = c.partners.length; n < PAST_ONE_PAGE; n++) {
      const added = await c.api.call('POST', '/api/partners', { token: c.admin.token, body: { name: `Partner ${n}`, slaHours: 48 } })
      expect(added.status).toBe(201)
    }
    for (let n = 0; n < PAST_ONE_PAGE; n++) await c.api.world.member('staff', { fullName: `Staff member ${n}` })
    const partner = await onSecondPage<{ id: string; name: string }>('/api/partners')
    const member = await onSecondPage<{ id: string; fullName: string }>('/api/members')

    const reference = await c.createNeed(partner.id, 'A roof leak')
    const assigned = await c.api.call('PUT', `/api/needs/${reference}`, { token: c.admin.token, body: { assignedTo: member.id } })
    expect(assigned.status).toBe(200)

    const page = await c.open(`/#/needs/${reference}`)
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    const fields = page.locator('dl.fields')
    await fields.getByText(partner.name, { exact: true }).waitFor()
    await fields.getByText(member.fullName, { exact: true }).waitFor()
    // The whole name: "Partner 9" is also the start of "Partner 90" to "Partner 99".
    const whole = new RegExp(`^${partner.name}$`)
    await page.getByLabel('Move to partner').locator('option', { hasText: whole }).waitFor({ state: 'attached' })

    await page.goto(`${c.api.url}/#/admin/partners`)
    await page.getByRole('button', { name: `Edit ${partner.name}`, exact: true }).waitFor()
    await c.done(page)
  })
  test(`a need with ${PAST_ONE_PAGE} notes shows every one of them`, async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'Help over many months')
    for (let n = 0; n < PAST_ONE_PAGE; n++) {
      const added = await c.api.call('POST', `/api/needs/${reference}/notes`, {
        token: c.admin.token,
        body: { content: `Call number ${n}` },
      })
      expect(added.status).toBe(201)
    }
    const page = await c.open(`/#/needs/${reference}`)
    await c.logIn(page, c.admin)
    const notes = page.getByRole('region', { name: 'Notes and messages' }).getByRole('listitem')
    await notes.getByText('Call number 0', { exact: true }).waitFor()
    await notes.getByText(`Call number ${PAST_ONE_PAGE - 1}`, { exact: true }).waitFor()
    expect(await notes.count()).toBe(PAST_ONE_PAGE)
    await c.done(page)
  })
})
