import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Constituents": an org_admin erases a person's details from their screen, asked first
// with the person named; others are not offered it.

declare const document: { activeElement: { id: string } | null }

describe.skipIf(!chromiumAvailable())('erasing a person in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  async function person(): Promise<{ id: string; lastName: string }> {
    const lastName = `Erase${crypto.randomUUID().replace(/\W/g, '').slice(0, 8)}`
    const created = await c.api.call<{ id: string }>('POST', '/api/constituents', {
      token: c.admin.token,
      body: { firstName: 'Rosa', lastName, phone: '+15550177001', addressCity: 'Springfield' },
    })
    expect(created.status).toBe(201)
    return { id: created.body.id, lastName }
  }

  test('an admin is asked first, naming the person, then the details are gone from the screen and the API', async () => {
    const { id, lastName } = await person()
    const page = await c.open(`/#/constituents/${id}`)
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: `Rosa ${lastName}`, level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Erase this person’s details…' }).click()
    await page.getByRole('heading', { name: `Erase Rosa ${lastName}’s details?` }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('erase-title')
    await c.expectAccessible(page)

    // Cancel changes nothing.
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect((await c.api.call('GET', `/api/constituents/${id}`, { token: c.admin.token })).body.lastName).toBe(lastName)

    await page.getByRole('button', { name: 'Erase this person’s details…' }).click()
    await page.getByRole('button', { name: 'Erase', exact: true }).click()
    await page.getByText('The person’s details are erased.').waitFor()
    await page.getByText(/This person’s details were erased on/).waitFor()
    expect(await page.getByText(lastName).count()).toBe(0)
    await c.expectAccessible(page)
    const after = (await c.api.call('GET', `/api/constituents/${id}`, { token: c.admin.token })).body
    expect(after.erasedAt).toBeString()
    expect(after.lastName).toBeUndefined()
    expect(after.phone).toBeUndefined()
    await c.done(page)
  })

  test('staff are not offered erasure', async () => {
    const { id, lastName } = await person()
    const page = await c.open(`/#/constituents/${id}`)
    await c.logIn(page, await c.member('staff'))
    // The screen is read (the household's heading is its last part); staff may not read the address.
    await page.getByRole('heading', { name: 'Household', level: 2 }).waitFor()
    expect(await page.getByRole('button', { name: /Erase/ }).count()).toBe(0)
    expect((await c.api.call('GET', `/api/constituents/${id}`, { token: c.admin.token })).body.lastName).toBe(lastName)
    await c.done(page)
  })
})
