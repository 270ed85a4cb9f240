import { expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { en } from '../../console/src/shared/strings-en'
import { es } from '../../console/src/shared/strings-es'
import type { ConsoleHarness } from '../support/console'
import { parseCsv } from '../support/csv'
import { TEST_PASSWORD } from '../support/world'

// The steps of the director's walk (console-director-walk.test.ts), each through the console as a director meets it,
// in the words of the console's own string tables. The import screen keeps its words in its own module, which reads
// the page's language when loaded: its few words are written here.

/** The page's own clipboard, inside `page.evaluate` (the project compiles without the DOM's types). */
declare const navigator: { clipboard: { readText(): Promise<string> } }

const IMPORT_WORDS = {
  en: {
    nav: 'Import',
    title: 'Import a spreadsheet',
    file: 'CSV file',
    check: 'Check the file',
    checked: 'Checked: nothing was stored yet. 2 rows: 1 to create, 0 already on file or repeated, 1 refused.',
    download: 'Download refused rows',
    importOne: 'Import 1 new record',
    imported: 'Imported. 2 rows: 1 created, 0 already on file or repeated, 1 refused.',
    // The spreadsheet's own words for its columns, as a food bank's sign-in sheet has them.
    header: ['Given name', 'Surname', 'Mobile'],
  },
  es: {
    nav: 'Importar',
    title: 'Importar una hoja de cálculo',
    file: 'Archivo CSV',
    check: 'Revisar el archivo',
    checked: 'Revisado: todavía no se guardó nada. 2 filas: 1 por crear, 0 ya registradas o repetidas, 1 rechazada.',
    download: 'Descargar filas rechazadas',
    importOne: 'Importar 1 registro nuevo',
    imported: 'Importado. 2 filas: 1 creada, 0 ya registradas o repetidas, 1 rechazada.',
    header: ['Nombre', 'Apellido', 'Celular'],
  },
}

export const WORDS = { en: { t: en, import: IMPORT_WORDS.en }, es: { t: es, import: IMPORT_WORDS.es } }
export type Language = keyof typeof WORDS
export type Words = (typeof WORDS)[Language]

/** The first run, from the printed password: one of the director's own, their name and real email, the organization. */
export async function firstRun(c: ConsoleHarness, page: Page, { t }: Words, who: { email: string; password: string; name: string }) {
  await page.getByLabel(t.email).fill('admin@example.org')
  await page.getByLabel(t.password).fill(TEST_PASSWORD)
  await page.getByRole('button', { name: t.logIn }).click()
  await page.getByRole('heading', { name: t.firstRunTitle }).waitFor()
  await c.expectAccessible(page)
  await page.getByLabel(t.currentPassword).fill(TEST_PASSWORD)
  await page.getByLabel(t.newPassword).fill(who.password)
  await page.getByRole('button', { name: t.savePassword }).click()
  await page.getByText(t.passwordChosen).waitFor()
  await page.getByLabel(t.yourName).fill(who.name)
  await page.getByLabel(t.yourEmail).fill(who.email)
  await page.getByLabel(t.organizationName).fill('Valley Food Bank')
  await page.getByLabel(t.defaultCountry).fill('us')
  await page.getByLabel(t.timeZone).fill('America/Los_Angeles')
  await c.expectAccessible(page)
  await page.getByRole('button', { name: t.saveName, exact: true }).click()
  await page.getByRole('heading', { name: t.needs, level: 1 }).waitFor()
  await c.expectAccessible(page)
}

/** Opens a section of the administration from the bar, as a director finds it. */
export async function administration(page: Page, { t }: Words, section: keyof typeof en.adminSections) {
  await page.getByRole('navigation', { name: t.main }).getByRole('link', { name: t.administration }).click()
  await page.getByRole('navigation', { name: t.administration }).getByRole('link', { name: t.adminSections[section] }).click()
}

export async function addPartner(c: ConsoleHarness, page: Page, words: Words, name: string) {
  const { t } = words
  await administration(page, words, 'partners')
  await page.getByRole('heading', { name: t.addPartner }).waitFor()
  await c.expectAccessible(page)
  await page.getByLabel(t.name, { exact: true }).last().fill(name)
  await page.getByLabel(t.slaHours).last().fill('72')
  await page.getByLabel(t.keywords).last().fill('lawyer, eviction')
  await page.getByRole('button', { name: t.addPartner }).click()
  await page.getByText(t.partnerAdded(name)).waitFor()
}

/** An invitation whose role says what it allows before it is sent. */
export async function invite(c: ConsoleHarness, page: Page, words: Words, email: string, partner: string) {
  const s = words.t.membersScreen
  await administration(page, words, 'members')
  await page.getByRole('heading', { name: s.invite }).waitFor()
  await page.getByLabel(words.t.email, { exact: true }).fill(email)
  await page.getByLabel(s.fullName).fill('Inés Ruiz')
  await page.getByLabel(s.role).selectOption({ label: s.roles.partner_agent })
  await page.locator('#invite-role-grants').getByText(s.grants.ownPartner).waitFor()
  await page.getByLabel(words.t.partner, { exact: true }).selectOption({ label: partner })
  await c.expectAccessible(page)
  await page.getByRole('button', { name: s.send }).click()
  await page.getByText(s.invitedNotice(email)).waitFor()
}

/** Copies the public intake form's link; answers what the clipboard then holds. */
export async function copyIntakeLink(c: ConsoleHarness, page: Page, words: Words): Promise<string> {
  const { t } = words
  await administration(page, words, 'organization')
  const section = page.getByRole('region', { name: t.intakeLinkTitle })
  await section.getByRole('button', { name: t.copyLink }).click()
  await section.getByText(t.copied).waitFor()
  await c.expectAccessible(page)
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await section.getByLabel(t.intakeLink).inputValue())
  return page.evaluate(() => navigator.clipboard.readText())
}

/** A need for a new person whose phone is typed as people say it; the director takes it and resolves it. Answers its reference. */
export async function newNeed(
  c: ConsoleHarness,
  page: Page,
  { t }: Words,
  person: { firstName: string; lastName: string },
  partner: string,
) {
  await page.getByRole('navigation', { name: t.main }).getByRole('button', { name: t.newNeed }).click()
  await page.getByRole('heading', { name: t.newNeed }).waitFor()
  await page.getByLabel(t.partner).selectOption({ label: partner })
  await page.getByLabel(t.description).fill('Groceries for the week')
  await page.getByLabel(t.firstName).fill(person.firstName)
  await page.getByLabel(t.lastName).fill(person.lastName)
  await page.getByLabel(t.phone).fill('503 555 0142')
  await c.expectAccessible(page)
  await page.getByRole('button', { name: t.create }).click()
  const heading = page.locator('h1:focus', { hasText: t.needTitle('') })
  await heading.waitFor()
  const reference = (await heading.textContent())!.replace(t.needTitle(''), '')
  await c.expectAccessible(page)
  await page.getByRole('button', { name: t.assignToMe }).click()
  await page.getByText(t.assigned).waitFor()
  await page.locator('#status').selectOption({ label: t.statuses.RESOLVED })
  await page.getByRole('button', { name: t.saveStatus }).click()
  await page.getByText(t.statusSaved).waitFor()
  return reference
}

/** Imports a spreadsheet with its own column names and one row refused; answers the refused rows' file. */
export async function importPeople(c: ConsoleHarness, page: Page, words: Words, lastName: string): Promise<string[][]> {
  const w = words.import
  await page.getByRole('navigation', { name: words.t.main }).getByRole('link', { name: w.nav }).click()
  await page.getByRole('heading', { name: w.title }).waitFor()
  const csv = `${w.header.join(',')}\nAna,${lastName},503 555 0199\nBo,${lastName},555\n`
  await page.getByLabel(w.file).setInputFiles({ name: 'sign-in.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const chosen = w.header.map((name) => page.getByLabel(name, { exact: true }).inputValue())
  expect(await Promise.all(chosen)).toEqual(['firstName', 'lastName', 'phone'])
  await c.expectAccessible(page)
  await page.getByRole('button', { name: w.check }).click()
  await page.getByText(w.checked).waitFor()
  await c.expectAccessible(page)
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: w.download }).click()])
  expect(file.suggestedFilename()).toBe('sign-in-refused.csv')
  const refused = parseCsv(readFileSync(await file.path(), 'utf8'))
  await page.getByRole('button', { name: w.importOne }).click()
  await page.getByText(w.imported).waitFor()
  return refused
}

/** The people served of the last four weeks, in all; its figure opened: the inbox's references and its address. */
export async function servedFigure(c: ConsoleHarness, page: Page, { t }: Words) {
  await page.getByRole('navigation', { name: t.main }).getByRole('link', { name: t.reports }).click()
  const served = page.getByRole('region', { name: t.served })
  await served.getByText(t.servedShown('America/Los_Angeles')).waitFor()
  await c.expectAccessible(page)
  const all = served.getByRole('row', { name: new RegExp(`^${t.allPartners}`) })
  const [people] = await all.locator('td').allTextContents()
  await all.getByRole('link').first().click()
  await page.waitForURL((url) => url.hash.includes('resolvedFrom'))
  await page.getByRole('heading', { name: t.needs, level: 1 }).waitFor()
  await page.locator('table tbody tr a').first().waitFor()
  await c.expectAccessible(page)
  const references = await page.locator('table tbody tr a').allTextContents()
  return { people: Number(people), references, query: new URLSearchParams(new URL(page.url()).hash.split('?')[1]) }
}

/** Exports the needs on the screen; answers the file's records, header first. */
export async function exportNeeds(page: Page, { t }: Words): Promise<string[][]> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: t.exportNeeds }).click()])
  await page.getByText(t.exported(file.suggestedFilename())).waitFor()
  return parseCsv(readFileSync(await file.path(), 'utf8'))
}
