import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { parseCsv } from '../support/csv'

// docs/console.md "Administration": the needs and constituents exports saved as downloads, with the filters
// of the list on the screen; offered only to whom may export.

describe.skipIf(!chromiumAvailable())('exports in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  /** Clicks the export button and answers the saved file's name and its records (header first). */
  async function download(page: Page, button: string | RegExp): Promise<{ name: string; records: string[][] }> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()])
    const name = file.suggestedFilename()
    await page.getByText(`Saved as ${name}.`).waitFor()
    return { name, records: parseCsv(readFileSync(await file.path(), 'utf8')) }
  }
  const column = (records: string[][], name: string) => records.slice(1).map((record) => record[records[0]!.indexOf(name)]!)

  test("the needs export keeps the inbox's filters", async () => {
    const housing = c.partners.find((p) => p.name === 'Housing help')!
    const resolved = await c.createNeed(housing.id, 'Rent for March')
    const open = await c.createNeed(housing.id, 'Rent for April')
    expect((await c.api.call('PUT', `/api/needs/${resolved}`, { token: c.admin.token, body: { status: 'RESOLVED' } })).status).toBe(200)

    const page = await c.open(`/#/needs?status=RESOLVED&partner=${housing.id}`)
    await c.logIn(page, c.admin)
    await page.getByRole('link', { name: resolved }).waitFor()
    await c.expectAccessible(page)
    const { name, records } = await download(page, 'Export these needs (CSV)')
    expect(name).toMatch(/^needs-\d{4}-\d{2}-\d{2}\.csv$/)
    const listed = await c.api.call<Array<{ referenceNumber: string }>>(
      'GET',
      `/api/needs?status=RESOLVED&partnerId=${housing.id}&limit=100`,
      {
        token: c.admin.token,
      },
    )
    const exported = column(records, 'referenceNumber')
    expect(exported).toEqual(listed.body.map((need) => need.referenceNumber))
    expect(exported).toContain(resolved)
    expect(exported).not.toContain(open)
    expect(new Set(column(records, 'status'))).toEqual(new Set(['RESOLVED']))
    await c.done(page)
  })

  test('the constituents export holds the people the search found', async () => {
    const lastName = `X${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
    for (const firstName of ['Ana', 'Luis'])
      expect((await c.api.call('POST', '/api/constituents', { token: c.admin.token, body: { firstName, lastName } })).status).toBe(201)

    const page = await c.open(`/#/constituents?q=${lastName}`)
    await c.logIn(page, c.admin)
    await page.getByText(`2 people match “${lastName}”.`).waitFor()
    const { name, records } = await download(page, `Export the people matching “${lastName}” (CSV)`)
    expect(name).toMatch(/^constituents-\d{4}-\d{2}-\d{2}\.csv$/)
    expect(column(records, 'firstName').sort()).toEqual(['Ana', 'Luis'])
    expect(new Set(column(records, 'lastName'))).toEqual(new Set([lastName]))
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('staff and a partner agent are offered no export; a volunteer reading details exports needs but not people', async () => {
    for (const who of [await c.member('staff'), await c.member('partner_agent', c.partners[0]!.id)]) {
      const page = await c.open('/#/constituents?q=Ana')
      await c.logIn(page, who)
      await page.getByRole('status').filter({ hasText: '“Ana”' }).waitFor()
      expect(await page.getByRole('button', { name: /Export/ }).count()).toBe(0)
      await page.getByRole('link', { name: 'Needs' }).click()
      await page.getByRole('table').waitFor()
      expect(await page.getByRole('button', { name: /Export/ }).count()).toBe(0)
      await c.done(page)
    }
    const volunteer = await c.member('volunteer', c.partners[0]!.id, { profiles: ['pii_reader'] })
    const page = await c.open('/')
    await c.logIn(page, volunteer)
    const { records } = await download(page, 'Export these needs (CSV)')
    expect(records[0]).toContain('referenceNumber')
    expect(await page.getByRole('link', { name: 'Constituents' }).count()).toBe(0)
    await c.done(page)
  })
})
