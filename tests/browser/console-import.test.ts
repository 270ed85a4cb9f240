import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import { parseCsv } from '../support/csv'

// docs/console.md "Import": an org_admin checks a spreadsheet (a dry run), reads its report, then imports it.

describe.skipIf(!chromiumAvailable())('importing a spreadsheet in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  const found = async (lastName: string) =>
    (await c.api.call<unknown[]>('GET', `/api/constituents?query=${lastName}`, { token: c.admin.token })).body.length

  test('an admin sees the dry run’s report first, refused rows by row and column, then imports; nothing is stored before', async () => {
    const lastName = `Imp${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
    const csv = `firstName,lastName,phone\nAna,${lastName},+15550170001\nBo,${lastName},555\nCy,${lastName},+15550170003\n`
    const page = await c.open('/')
    await c.logIn(page, c.admin)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click()
    await page.getByRole('heading', { name: 'Import a spreadsheet' }).waitFor()
    await c.expectAccessible(page)

    await page.getByLabel('People (constituents)').check()
    await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await page.getByRole('button', { name: 'Check the file' }).click()
    await page.getByText('Checked: nothing was stored yet. 3 rows: 2 to create, 0 already on file or repeated, 1 refused.').waitFor()
    const refused = await page.locator('tbody tr').allTextContents()
    expect(refused).toEqual(['2phonemust be a phone number, e.g. +1 503 555 0142 or 503 555 0142'])
    await c.expectAccessible(page)
    expect(await found(lastName)).toBe(0)

    await page.getByRole('button', { name: 'Import 2 new records' }).click()
    await page.getByText('Imported. 3 rows: 2 created, 0 already on file or repeated, 1 refused.').waitFor()
    expect(await found(lastName)).toBe(2)
    // The same file again: checked, it would create nothing, and no import is offered.
    await page.getByRole('button', { name: 'Check the file' }).click()
    await page.getByText('Checked: nothing was stored yet. 3 rows: 0 to create, 2 already on file or repeated, 1 refused.').waitFor()
    expect(await page.getByRole('button', { name: /^Import \d/ }).count()).toBe(0)
    await c.done(page)
  })

  test('the columns are matched by their names and chosen by hand; the refused rows download with their reason', async () => {
    const lastName = `Map${crypto
      .randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 8)}`
    const csv = `Given name,Surname,Mobile,Notes\nAna,${lastName},+15550170011,x\n\nBo,"${lastName}, Jr",555,y\n`
    const page = await c.open('/#/import')
    await c.logIn(page, c.admin)
    await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await page.getByRole('group', { name: 'Columns' }).waitFor()
    // Each column pre-selected from the document's common names; one the service does not know left out.
    expect(await page.getByLabel('Given name').inputValue()).toBe('firstName')
    expect(await page.getByLabel('Surname').inputValue()).toBe('lastName')
    expect(await page.getByLabel('Mobile').inputValue()).toBe('phone')
    expect(await page.getByLabel('Notes').inputValue()).toBe('')
    await c.expectAccessible(page)
    // Chosen by hand: the notes are read as the street, the header rewritten before the file is sent.
    // Each field offered in words, with its name in the file.
    expect(await page.getByLabel('Notes').locator('option[value="addressStreet"]').textContent()).toBe('Street (addressStreet)')
    await page.getByLabel('Notes').selectOption('addressStreet')
    await page.getByRole('button', { name: 'Check the file' }).click()
    await page.getByText('Checked: nothing was stored yet. 2 rows: 1 to create, 0 already on file or repeated, 1 refused.').waitFor()
    await c.expectAccessible(page)

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download refused rows' }).click()])
    expect(file.suggestedFilename()).toBe('people-refused.csv')
    // The file's own header and cells, blank line counted as the service counts rows.
    expect(parseCsv(readFileSync(await file.path(), 'utf8'))).toEqual([
      ['Given name', 'Surname', 'Mobile', 'Notes', 'reason'],
      ['Bo', `${lastName}, Jr`, '555', 'y', 'phone: must be a phone number, e.g. +1 503 555 0142 or 503 555 0142'],
    ])
    await page.getByRole('button', { name: 'Import 1 new record' }).click()
    await page.getByText('Imported. 2 rows: 1 created, 0 already on file or repeated, 1 refused.').waitFor()
    const people = await c.api.call<Array<{ addressStreet?: string }>>('GET', `/api/constituents?query=${lastName}`, {
      token: c.admin.token,
    })
    expect(people.body.map((person) => person.addressStreet)).toEqual(['x'])
    await c.done(page)
  })

  test('only an org_admin is offered the import', async () => {
    const staff = await c.member('staff', undefined, { profiles: ['pii_reader'] })
    const page = await c.open('/')
    await c.logIn(page, staff)
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).count()).toBe(0)
    await c.done(page)
  })
})
