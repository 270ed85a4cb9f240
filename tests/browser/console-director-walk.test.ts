import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { FIRST_START_ADMIN_EMAIL } from '../../src/domain/members/member'
import { FIRST_ORGANIZATION_NAME } from '../../src/main/bootstrap'
import { fallbackInvitationTo } from '../adapters/http/helpers'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'
import {
  addPartner,
  copyIntakeLink,
  exportNeeds,
  firstRun,
  importPeople,
  invite,
  newNeed,
  servedFigure,
  WORDS,
} from './director-walk-steps'

// docs/console.md "Browser tests": the director's first hour and month end, one walk through the console in each
// language, every screen checked by axe; what the page alone would not prove is asked of the API.

const BASE_URL = 'https://intake.example.org'
type NeedJson = { id: string; referenceNumber: string; constituentId?: string; status: string; customFields: Record<string, string> }

for (const language of ['en', 'es'] as const) {
  describe.skipIf(!chromiumAvailable())(`the director's walk (${language})`, () => {
    const words = WORDS[language]
    let c: ConsoleHarness
    beforeAll(async () => {
      c = await startConsoleHarness({ PUBLIC_BASE_URL: BASE_URL })
    })
    afterAll(() => c?.stop())

    const suffix = () =>
      crypto
        .randomUUID()
        .replace(/[^a-f]/g, '')
        .slice(0, 8)
    const call = <T>(method: string, path: string, body?: unknown) =>
      c.api.call<T>(method, path, { token: c.admin.token, ...(body ? { body } : {}) })

    /** The organization as `intake serve` leaves it on an empty database: its first name, its admin at admin@example.org. */
    async function asAtFirstStart() {
      expect((await call('PUT', '/api/organizations/settings', { name: FIRST_ORGANIZATION_NAME })).status).toBe(200)
      const { world } = c.api
      const { passwordHash } = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!
      await world.member('org_admin', { email: FIRST_START_ADMIN_EMAIL, passwordHash, isConfirmed: true })
    }

    /** The rest of the month's work, done by others: Rita helped twice and resolved, someone still waiting. */
    async function theMonthsOtherNeeds(partnerId: string): Promise<string[]> {
      const rita = await call<{ id: string }>('POST', '/api/constituents', { firstName: 'Rita', lastName: `Served${suffix()}` })
      const references: string[] = []
      for (const description of ['Rice', 'Beans']) {
        const need = await call<NeedJson>('POST', '/api/needs', { partnerId, constituentId: rita.body.id, customFields: { description } })
        expect((await call('PUT', `/api/needs/${need.body.id}`, { status: 'RESOLVED' })).status).toBe(200)
        references.push(need.body.referenceNumber)
      }
      await c.createNeed(partnerId, 'Still waiting')
      return references
    }

    test('from the printed password to the first need, then the month end: import, report, export', async () => {
      await asAtFirstStart()
      await c.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.api.url })
      const director = { email: `dana-${suffix()}@valley-food.example`, password: 'a password only I know', name: 'Dana Director' }
      const nora = { firstName: 'Nora', lastName: `Walk${suffix()}` }
      const partnerName = `Legal aid ${suffix()}`
      const invited = `ines-${suffix()}@valley-food.example`
      const started = performance.now()
      const page = await c.open(language === 'es' ? '/?lang=es' : '/')

      // The first hour.
      await firstRun(c, page, words, director)
      const login = await c.api.call<{ accessToken: string }>('POST', '/api/auth/login', {
        body: { email: director.email, password: director.password },
      })
      expect(login.status).toBe(200)
      expect((await c.api.call('GET', '/api/profile', { token: login.body.accessToken })).body).toMatchObject({
        email: director.email,
        fullName: director.name,
      })
      const settings = await call<{ slug: string; name: string; defaultCountry: string }>('GET', '/api/organizations/settings')
      expect(settings.body).toMatchObject({ name: 'Valley Food Bank', defaultCountry: 'US', timeZone: 'America/Los_Angeles' })

      await addPartner(c, page, words, partnerName)
      const partners = await call<Array<{ id: string; name: string; slaHours: number }>>('GET', '/api/partners?limit=100')
      const partner = partners.body.find((p) => p.name === partnerName)!
      expect(partner.slaHours).toBe(72)

      await invite(c, page, words, invited, partnerName)
      const members = await call<Array<{ email: string; role: string; partnerId?: string }>>('GET', '/api/members?limit=100')
      expect(members.body.find((m) => m.email === invited)).toMatchObject({ role: 'partner_agent', partnerId: partner.id })
      // Sent in the console's language, which the form chose for it.
      const invitation = await fallbackInvitationTo(c.api, invited)
      expect(invitation.subject).toBe({ en: 'You are invited to Valley Food Bank', es: 'Le invitan a Valley Food Bank' }[language])

      expect(await copyIntakeLink(c, page, words)).toBe(`${BASE_URL}/intake/${settings.body.slug}`)

      const reference = await newNeed(c, page, words, nora, partnerName)
      const need = (await call<NeedJson>('GET', `/api/needs/${reference}`)).body
      expect(need).toMatchObject({ status: 'RESOLVED', customFields: { phone: '+15035550142', lastName: nora.lastName } })
      expect((await call<{ phone: string }>('GET', `/api/constituents/${need.constituentId}`)).body.phone).toBe('+15035550142')

      // The month end.
      const others = await theMonthsOtherNeeds(partner.id)
      const importedName = `Imp${suffix()}`
      const refused = await importPeople(c, page, words, importedName)
      expect(refused[0]).toEqual([...words.import.header, 'reason'])
      expect(refused.slice(1).map((row) => row.slice(0, 3))).toEqual([['Bo', importedName, '555']])
      expect(refused[1]![3]).toStartWith('phone: ')
      const imported = await call<Array<{ firstName: string; phone: string }>>('GET', `/api/constituents?query=${importedName}`)
      expect(imported.body.map(({ firstName, phone }) => ({ firstName, phone }))).toEqual([{ firstName: 'Ana', phone: '+15035550199' }])

      const figure = await servedFigure(c, page, words)
      // The count is of people: Nora once, Rita once though helped twice.
      const resolved = [reference, ...others]
      const listed = await call<NeedJson[]>(
        'GET',
        `/api/needs?resolvedFrom=${figure.query.get('resolvedFrom')}&resolvedTo=${figure.query.get('resolvedTo')}&limit=100`,
      )
      expect(listed.body.map((n) => n.referenceNumber).sort()).toEqual([...resolved].sort())
      expect(figure.people).toBe(new Set(listed.body.map((n) => n.constituentId)).size)
      expect(figure.people).toBe(2)
      expect([...figure.references].sort()).toEqual([...resolved].sort())

      const records = await exportNeeds(page, words)
      const [header, ...rows] = records
      expect(header).toEqual(expect.arrayContaining(['referenceNumber', 'partnerName', 'assigneeName', 'constituentName']))
      const noras = rows.find((row) => row[header!.indexOf('referenceNumber')] === reference)!
      const cell = (name: string) => noras[header!.indexOf(name)]
      expect([cell('partnerName'), cell('assigneeName'), cell('constituentName')]).toEqual([
        partnerName,
        director.name,
        `${nora.firstName} ${nora.lastName}`,
      ])
      expect(rows.map((row) => row[header!.indexOf('referenceNumber')]).sort()).toEqual([...resolved].sort())
      await c.done(page)
      console.log(`The director's walk (${language}) took ${Math.round(performance.now() - started)} ms in the browser.`)
    })
  })
}
