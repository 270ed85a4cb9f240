import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SetOrganizationPhoneNumber } from '../../src/application/organizations/set-organization-phone-number'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'
import { TwilioMock } from '../support/twilio-mock'

// docs/console.md "A need": assigning to any member, moving to another partner, confidentiality and a text to
// the constituent, each shown only to a member whose permissions allow it, and a refusal shown as a message.

describe.skipIf(!chromiumAvailable())('a need in the staff console', () => {
  let c: ConsoleHarness
  // Texts reach people (a local Twilio, the organization's number set), one per number an hour.
  const twilioMock = new TwilioMock()
  beforeAll(async () => {
    twilioMock.start()
    c = await startConsoleHarness({
      SMS_PER_RECIPIENT_PER_HOUR: '1',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'2'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'console-need-token',
      TWILIO_API_BASE_URL: twilioMock.url,
    })
    const organization = await c.api.world.repositories.organizations.findById(c.api.world.organizationId)
    await c.api.server.container.get(SetOrganizationPhoneNumber).execute(organization!.slug, '+15550009100')
  })
  afterAll(async () => {
    await c?.stop()
    await twilioMock.stop()
  })

  const idOf = async (who: Member) => (await c.api.call<{ id: string }>('GET', '/api/profile', { token: who.token })).body.id
  const stored = async (reference: string) =>
    (await c.api.call<Record<string, unknown>>('GET', `/api/needs/${reference}`, { token: c.admin.token })).body

  async function needWithPhone(phone: string): Promise<string> {
    const created = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, customFields: { description: 'Needs a ride to the clinic', firstName: 'Rosa', phone } },
    })
    expect(created.status).toBe(201)
    return created.body.referenceNumber
  }

  async function openNeed(who: Member, reference: string): Promise<Page> {
    const page = await c.open(`/#/needs/${reference}`)
    await c.logIn(page, who)
    await page.getByRole('heading', { name: `Need ${reference}` }).waitFor()
    return page
  }

  test('an admin assigns the need to another member by name, moves it to another partner and marks it confidential; all stored', async () => {
    const colleague = await c.member('staff', undefined, { fullName: 'Bea Colleague' })
    const reference = await c.createNeed(c.partners[0]!.id, 'Boiler repair')
    const page = await openNeed(c.admin, reference)
    await c.expectAccessible(page)

    await page.getByLabel('Assign to').selectOption({ label: 'Bea Colleague' })
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    await page.getByText('Assigned to Bea Colleague.').waitFor()
    expect((await stored(reference)).assignedTo).toBe(await idOf(colleague))
    await page.getByRole('listitem').filter({ hasText: 'Assignee: — → Bea Colleague' }).waitFor()

    await page.getByLabel('Move to partner').selectOption({ label: c.partners[1]!.name })
    await page.getByRole('button', { name: 'Move', exact: true }).click()
    await page.getByText(`Moved to ${c.partners[1]!.name}.`).waitFor()
    expect((await stored(reference)).partnerId).toBe(c.partners[1]!.id)

    await page.getByRole('button', { name: 'Mark confidential' }).click()
    await page.getByText('Marked confidential.').waitFor()
    expect((await stored(reference)).isConfidential).toBe(true)
    await page.getByRole('button', { name: 'Mark not confidential' }).click()
    await page.getByText('No longer confidential.').waitFor()
    expect((await stored(reference)).isConfidential).toBe(false)

    await page.getByLabel('Assign to').selectOption({ label: 'Nobody' })
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    await page.getByText('Assigned to nobody.').waitFor()
    expect(await stored(reference)).not.toHaveProperty('assignedTo')
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('in Spanish a member assigns the need to themselves by the picker: "Asignada a usted", shown as Responsable: Yo', async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'Reparar la caldera')
    const page = await c.open(`/?lang=es#/needs/${reference}`)
    await c.logIn(page, c.admin, 'es')
    await page.getByRole('heading', { name: `Solicitud ${reference}` }).waitFor()

    await page.getByLabel('Asignar a').selectOption({ label: 'Yo' })
    await page.getByRole('button', { name: 'Asignar', exact: true }).click()
    await page.getByText('Asignada a usted.').waitFor()
    expect((await stored(reference)).assignedTo).toBe(await idOf(c.admin))
    expect(await page.locator('dt', { hasText: 'Responsable' }).locator('+ dd').textContent()).toBe('Yo')
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('a text to the constituent is queued and shows in the timeline; with the number at its limit the box says why instead', async () => {
    const reference = await needWithPhone('+15550102030')
    const page = await openNeed(c.admin, reference)
    await page.getByLabel('Text message to the person').fill('Your ride is booked for 9am')
    await page.getByRole('button', { name: 'Send text' }).click()
    await page.getByText('Text queued; it is sent in a moment.').waitFor()
    await page.locator('.timeline .content', { hasText: 'Your ride is booked for 9am' }).waitFor()
    await c.expectAccessible(page)

    // One text an hour to this number: no second one is offered, and the reason is said where it would be written.
    await page.getByText('No text can be sent just now: the limit of texts to this number is reached. Try again later.').waitFor()
    expect(await page.getByLabel('Text message to the person').count()).toBe(0)
    const interactions = await c.api.call<Array<{ channel: string; content: string }>>('GET', `/api/needs/${reference}/interactions`, {
      token: c.admin.token,
    })
    expect(interactions.body.filter((i) => i.channel === 'sms').map((i) => i.content)).toEqual(['Your ride is booked for 9am'])
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('each member sees the controls its permissions allow: staff no text, an agent no member picker, a volunteer notes only (no new need, no constituents)', async () => {
    const reference = await needWithPhone('+15550102031')
    const controls = async (page: Page) => ({
      status: await page.getByLabel('Status').count(),
      assignTo: await page.getByLabel('Assign to').count(),
      move: await page.getByLabel('Move to partner').count(),
      confidential: await page.getByRole('button', { name: 'Mark confidential' }).count(),
      text: await page.getByLabel('Text message to the person').count(),
      note: await page.getByLabel('Note', { exact: true }).count(),
      newNeed: await page.getByRole('button', { name: 'New need' }).count(),
      constituents: await page.getByRole('link', { name: 'Constituents' }).count(),
    })
    const expected = {
      staff: { status: 1, assignTo: 1, move: 1, confidential: 1, text: 0, note: 1, newNeed: 1, constituents: 1 },
      partner_agent: { status: 1, assignTo: 0, move: 1, confidential: 1, text: 0, note: 1, newNeed: 1, constituents: 1 },
      volunteer: { status: 0, assignTo: 0, move: 0, confidential: 0, text: 0, note: 1, newNeed: 0, constituents: 0 },
    }
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      const who = await c.member(role, role === 'staff' ? undefined : c.partners[0]!.id)
      const page = await openNeed(who, reference)
      await page.getByLabel('Note', { exact: true }).waitFor()
      expect({ role, ...(await controls(page)) }).toEqual({ role, ...expected[role] })
      await c.expectAccessible(page)
      await c.done(page)
    }
    // A profile adds its control: an agent holding sms_communicator may text.
    const texter = await c.member('partner_agent', c.partners[0]!.id, { profiles: ['sms_communicator'] })
    const page = await openNeed(texter, reference)
    await page.getByLabel('Text message to the person').waitFor()
    await c.done(page)
  })

  test('the server still decides: an agent who may not read a confidential need cannot lift it, and is told so', async () => {
    const reference = await c.createNeed(c.partners[0]!.id, 'Shelter, safety concern')
    expect((await c.api.call('PUT', `/api/needs/${reference}`, { token: c.admin.token, body: { isConfidential: true } })).status).toBe(200)
    const agent = await c.member('partner_agent', c.partners[0]!.id)
    const page = await openNeed(agent, reference)
    await page.getByRole('button', { name: 'Mark not confidential' }).click()
    await page.getByText('Your role may not do this.').waitFor()
    expect((await stored(reference)).isConfidential).toBe(true)
    await c.expectAccessible(page)
    await c.done(page)
  })
})
