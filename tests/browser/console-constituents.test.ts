import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'

// docs/console.md "Constituents": search by name, phone and email; a person as the API redacts them, with
// their needs and household; the possible duplicates resolved, a merge confirmed with both records shown.

describe.skipIf(!chromiumAvailable())('constituents in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  /** A person with a unique last name, so each test finds its own. */
  async function person(fields: Record<string, string>): Promise<string> {
    const created = await c.api.call<{ id: string }>('POST', '/api/constituents', { token: c.admin.token, body: fields })
    expect(created.status).toBe(201)
    return created.body.id
  }
  const unique = () =>
    `Q${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
  const names = (page: Page) => page.locator('tbody tr td:first-child').allTextContents()

  /** Searches, and waits for the answer to this search (the one before may still be on the screen). */
  async function search(page: Page, text: string) {
    await page.getByLabel('Name, phone or email').fill(text)
    await page.getByRole('button', { name: 'Search' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: `“${text}”` })
      .waitFor()
  }

  async function loggedIn(who: Member, path = '/#/constituents'): Promise<Page> {
    const page = await c.open(path)
    await c.logIn(page, who)
    return page
  }

  test('an admin finds a person by name, phone and email, and reads their details, needs and household', async () => {
    const lastName = unique()
    const id = await person({
      firstName: 'Marta',
      lastName,
      phone: '+15550190001',
      email: `${lastName.toLowerCase()}@example.org`,
      addressCity: 'Springfield',
    })
    const need = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, constituentId: id, customFields: { description: 'Groceries' } },
    })
    expect(need.status).toBe(201)

    const page = await loggedIn(c.admin)
    await page.getByRole('heading', { name: 'Constituents' }).waitFor()
    await c.expectAccessible(page)
    for (const text of [lastName, '5550190001', `${lastName.toLowerCase()}@example.org`]) {
      await search(page, text)
      await page.getByText(`1 person matches “${text}”.`).waitFor()
      expect(await names(page)).toEqual([`Marta ${lastName}`])
    }
    await c.expectAccessible(page)

    await page.getByRole('link', { name: `Marta ${lastName}` }).click()
    await page.getByRole('heading', { name: `Marta ${lastName}` }).waitFor()
    const details = await page.locator('dl.fields').textContent()
    for (const shown of ['+15550190001', 'Springfield']) expect(details).toContain(shown)
    await page.getByRole('heading', { name: 'Needs (1)' }).waitFor()
    // The household: the others in it, each a link to them.
    await page.getByText('Nobody else in this household.').waitFor()
    const partnerOf = await c.api.call<{ id: string }>('POST', '/api/constituents', {
      token: c.admin.token,
      body: {
        firstName: 'Pablo',
        lastName,
        householdId: (await c.api.call<{ householdId: string }>('GET', `/api/constituents/${id}`, { token: c.admin.token })).body
          .householdId,
      },
    })
    await page.reload()
    await page.getByRole('link', { name: `Pablo ${lastName}` }).click()
    await page.getByRole('heading', { name: `Pablo ${lastName}` }).waitFor()
    await page.getByRole('link', { name: `Marta ${lastName}` }).click()
    await page.getByRole('heading', { name: `Marta ${lastName}` }).waitFor()
    expect(partnerOf.status).toBe(201)
    await c.expectAccessible(page)
    await page.getByRole('link', { name: need.body.referenceNumber }).click()
    await page.getByRole('heading', { name: `Need ${need.body.referenceNumber}` }).waitFor()
    await c.done(page)
  })

  test('a partner agent finds a person by name, sees no phone or email, and is offered no duplicates or merge', async () => {
    const lastName = unique()
    await person({ firstName: 'Nora', lastName, phone: '+15550190002', email: `${lastName.toLowerCase()}@example.org` })
    const agent = await c.member('partner_agent', c.partners[0]!.id)
    const page = await loggedIn(agent)
    await search(page, lastName)
    await page.getByRole('link', { name: `Nora ${lastName}` }).click()
    await page.getByRole('heading', { name: `Nora ${lastName}` }).waitFor()
    const details = (await page.locator('dl.fields').textContent())!
    expect(details).not.toContain('5550190002')
    expect(details).not.toContain('@example.org')
    await c.expectAccessible(page)
    await page.getByRole('link', { name: 'Constituents' }).click()
    await page.getByLabel('Name, phone or email').waitFor()
    expect(await page.getByRole('link', { name: 'Possible duplicates' }).count()).toBe(0)
    // Its address leads nowhere either: the server refuses the list, and the screen says so.
    await page.goto(`${c.api.url}/#/constituents/matches`)
    await page.getByText('Your role may not do this.').waitFor()
    expect(await page.getByRole('button', { name: 'Same person: merge…' }).count()).toBe(0)
    await c.done(page)
  })

  test('a possible duplicate is merged after a confirmation that shows both records; another is dismissed', async () => {
    const lastName = unique()
    const first = await person({ firstName: 'Ines', lastName, phone: '+15550190003', addressCity: 'Dayton' })
    const second = await person({ firstName: 'Inés', lastName, phone: '+15550190003', addressCity: 'Akron' })
    await c.api.call('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, constituentId: second, customFields: { description: 'Rent' } },
    })

    const page = await loggedIn(c.admin)
    await page.getByRole('link', { name: 'Possible duplicates' }).click()
    await page.getByRole('heading', { name: 'Possible duplicates' }).waitFor()
    const match = page.getByRole('listitem').filter({ hasText: `Inés ${lastName}` })
    await match.getByText('same phone').waitFor()
    await c.expectAccessible(page)
    await match.getByRole('button', { name: 'Same person: merge…' }).click()

    const confirmation = page.getByRole('region', { name: 'Merge these two records?' })
    await confirmation.waitFor()
    for (const shown of [`Ines ${lastName}`, `Inés ${lastName}`, 'Dayton', 'Akron'])
      expect(await confirmation.textContent()).toContain(shown)
    await c.expectAccessible(page)
    await page.getByLabel(`Keep Ines ${lastName}`).check()
    await page.getByRole('button', { name: 'Merge', exact: true }).click()
    await page.getByText('Merged: one record now.').waitFor()
    expect((await c.api.call('GET', `/api/constituents/${second}`, { token: c.admin.token })).status).toBe(404)
    const needs = await c.api.call<unknown[]>('GET', `/api/constituents/${first}/needs`, { token: c.admin.token })
    expect(needs.body).toHaveLength(1)

    // Another pair, not the same person: dismissed, it leaves the list.
    const other = unique()
    await person({ firstName: 'Ola', lastName: other, email: `${other.toLowerCase()}@example.org` })
    await person({ firstName: 'Olga', lastName: other, email: `${other.toLowerCase()}@example.org` })
    await page.reload()
    const pair = page.getByRole('listitem').filter({ hasText: `Olga ${other}` })
    await pair.getByRole('button', { name: 'Not the same person' }).click()
    await page.getByText('Marked as not the same person.').waitFor()
    expect(
      await page
        .getByRole('listitem')
        .filter({ hasText: `Olga ${other}` })
        .count(),
    ).toBe(0)
    const dismissed = await c.api.call<Array<{ candidate?: { lastName?: string } }>>('GET', '/api/household-matches?status=DISMISSED', {
      token: c.admin.token,
    })
    expect(dismissed.body.some((m) => m.candidate?.lastName === other)).toBe(true)
    await c.done(page)
  })
})
