import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import twilio from 'twilio'
import { DispatchOutbox } from '../../src/application/messaging/dispatch-outbox'
import { SetOrganizationPhoneNumber } from '../../src/application/organizations/set-organization-phone-number'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness, type Member } from '../support/console'
import { TwilioMock } from '../support/twilio-mock'

// docs/console.md "Conversations by text": Messages nobody has picked up, a need's thread with who sent each text and
// how far it went, the reply box only where a text can go, quick replies; at phone width and at a desk, in English
// and Spanish, every screen checked with axe. Twilio is a local mock; its webhooks are signed as Twilio signs them.

declare const document: { documentElement: { scrollWidth: number } }

const ACCOUNT_SID = `AC${'1'.repeat(32)}`
const AUTH_TOKEN = 'console-texts-token'
const ORG_NUMBER = '+15550009000'

describe.skipIf(!chromiumAvailable())('conversations by text in the staff console', () => {
  const twilioMock = new TwilioMock()
  let c: ConsoleHarness
  let phones = 0
  beforeAll(async () => {
    twilioMock.start()
    c = await startConsoleHarness({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_API_BASE_URL: twilioMock.url,
      SERVE_RUNS_WORKER: 'false',
    })
    const organization = await c.api.world.repositories.organizations.findById(c.api.world.organizationId)
    await c.api.server.container.get(SetOrganizationPhoneNumber).execute(organization!.slug, ORG_NUMBER)
  })
  afterAll(async () => {
    await c?.stop()
    await twilioMock.stop()
  })

  const newPhone = () => `+1555${String(3_000_000 + ++phones).padStart(7, '0')}`
  let sids = 0
  /** Twilio's call to a webhook, signed over the service's PUBLIC_BASE_URL as Twilio signs it. */
  async function webhook(path: string, params: Record<string, string>) {
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${c.api.config.publicBaseUrl}${path}`, params)
    const answer = await c.api.call('POST', path, {
      raw: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    })
    expect(answer.status).toBeLessThan(300)
  }
  const inbound = (from: string, body: string) =>
    webhook('/api/webhooks/twilio/sms', { From: from, To: ORG_NUMBER, Body: body, MessageSid: `SM${String(++sids).padStart(32, 'a')}` })
  const dispatch = async () => {
    const outbox = c.api.server.container.get(DispatchOutbox)
    for (let pass = 0; pass < 20 && (await outbox.runOnce()) > 0; pass++);
  }

  async function logIn(who: Member, path: string, options: { width?: number; language?: 'en' | 'es' } = {}): Promise<Page> {
    const page = await c.open(`${options.language === 'es' ? '/?lang=es' : '/'}#${path}`, options)
    await c.logIn(page, who, options.language)
    return page
  }

  test('two texts from an unknown number wait under Messages; a need started from one holds both, and a reply shows its sender and delivery', async () => {
    const from = newPhone()
    await inbound(from, 'Hello, is the pantry open Saturday?')
    await inbound(from, 'I also need diapers')
    const page = await logIn(c.admin, '/needs')
    const messages = page.getByRole('link', { name: /^Messages \d+ waiting$/ })
    await messages.waitFor()
    await messages.click()
    await page.getByRole('heading', { name: 'Messages nobody has picked up' }).waitFor()
    await page.getByText('I also need diapers').waitFor()
    await c.expectAccessible(page)

    const first = page.getByRole('article').filter({ hasText: 'Hello, is the pantry open Saturday?' })
    expect(await first.getByRole('heading').textContent()).toContain(from)
    await first.getByLabel('Partner').selectOption({ label: c.partners[0]!.name })
    await first.getByLabel('What the need is about (optional)').fill('Pantry hours and diapers')
    await first.getByRole('button', { name: 'Start a need from it' }).click()
    await page.getByRole('heading', { name: /^Need / }).waitFor()
    const thread = page.locator('.thread')
    await thread.getByText('I also need diapers').waitFor()
    expect(await thread.getByText('from the person').count()).toBe(2)
    await c.expectAccessible(page)

    const name = (await c.api.call<{ fullName?: string; email: string }>('GET', '/api/profile', { token: c.admin.token })).body
    await page.getByLabel('Text message to the person').fill('Yes, 9 to noon. Diapers are in.')
    await page.getByRole('button', { name: 'Send text' }).click()
    const reply = thread.getByRole('listitem').filter({ hasText: 'Yes, 9 to noon.' })
    await reply.waitFor()
    expect(await reply.textContent()).toContain(`sent by ${name.fullName ?? name.email} · queued`)

    await dispatch()
    const sent = twilioMock.messages.find((message) => message.to === from)!
    expect(sent.body).toBe('Yes, 9 to noon. Diapers are in.')
    await webhook('/api/webhooks/twilio/status', { MessageSid: sent.sid, MessageStatus: 'delivered', From: ORG_NUMBER, To: from })
    // The status arrives by the live stream: the open need shows it without a reload.
    await reply.getByText('delivered').waitFor()
    await page.getByRole('link', { name: 'Messages' }).waitFor()
    await c.done(page)
  })

  test('at phone width in Spanish: a person who sent STOP is told apart and offered no text; Messages fits the screen', async () => {
    const phone = newPhone()
    const person = await c.api.call<{ id: string }>('POST', '/api/constituents', {
      token: c.admin.token,
      body: { firstName: 'Lucía', lastName: 'Mora', phone },
    })
    const need = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, constituentId: person.body.id },
    })
    await inbound(phone, 'ALTO')
    const page = await logIn(c.admin, `/needs/${need.body.referenceNumber}`, { width: 375, language: 'es' })
    await page.getByRole('heading', { name: `Solicitud ${need.body.referenceNumber}` }).waitFor()
    await page.getByText(/^SMS detenidos el /).waitFor()
    await page.getByText('No se puede enviar un SMS: la persona pidió no recibir más (STOP).').waitFor()
    expect(await page.getByLabel('Mensaje de texto a la persona').count()).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)

    // Messages at phone width: a text from a number no one has waits there, with what can be done with it.
    await inbound(newPhone(), '¿Tienen pañales esta semana?')
    await page.getByRole('link', { name: /^Mensajes \d+ en espera$/ }).click()
    await page.getByRole('heading', { name: 'Mensajes sin atender' }).waitFor()
    await page.getByText('¿Tienen pañales esta semana?').waitFor()
    await page.getByRole('button', { name: 'Empezar una solicitud con él' }).first().waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await c.expectAccessible(page)
    await c.done(page)
  })

  test('quick replies written by the admin fill the reply box with the need’s reference and partner', async () => {
    const page = await logIn(c.admin, '/admin/replies')
    await page.getByRole('heading', { name: 'Quick replies' }).waitFor()
    await page.getByRole('button', { name: 'Add a reply' }).click()
    await page.getByLabel('Name staff pick it by').fill('Hours')
    await page.getByLabel('Text in English').fill('About {reference}: {partner} is open 9 to noon.')
    await page.getByLabel('Text in Spanish').fill('Sobre {reference}: {partner} abre de 9 a 12.')
    await page.getByRole('button', { name: 'Save quick replies' }).click()
    await page.getByText('Quick replies saved.').waitFor()
    await c.expectAccessible(page)

    const phone = newPhone()
    const person = await c.api.call<{ id: string }>('POST', '/api/constituents', {
      token: c.admin.token,
      body: { firstName: 'Ana', phone },
    })
    const need = await c.api.call<{ referenceNumber: string }>('POST', '/api/needs', {
      token: c.admin.token,
      body: { partnerId: c.partners[0]!.id, constituentId: person.body.id },
    })
    const reference = need.body.referenceNumber
    await page.goto(`${c.api.url}/?lang=es#/needs/${reference}`)
    await page.getByLabel('Respuesta rápida').selectOption({ label: 'Hours (ES)' })
    expect(await page.getByLabel('Mensaje de texto a la persona').inputValue()).toBe(
      `Sobre ${reference}: ${c.partners[0]!.name} abre de 9 a 12.`,
    )
    await c.expectAccessible(page)
    await c.done(page)
  })
})
