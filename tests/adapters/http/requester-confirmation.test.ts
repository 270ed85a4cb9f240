import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { deliverUntil, expectBadRequest, loggedEmailsTo, postForm } from './helpers'

// docs/api.md "Public intake": the confirmation to the person who asked, over real HTTP (the JSON intake and
// the form), on SQLite and PostgreSQL; texts through the log provider (SMS_PROVIDER=log), mail through the
// log fallback.
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

interface LoggedText {
  message: string
  to: string
  body: string
}
const textsTo = (phone: string) =>
  api.logs
    .map((line) => JSON.parse(line) as LoggedText)
    .filter((entry) => entry.message === 'sms written to the log (SMS_PROVIDER=log)' && entry.to === phone)

/** An organization of its own, confirming requests or not, with its slug and its admin's token. */
async function organization(confirmRequests: boolean): Promise<{ world: World; slug: string; admin: string }> {
  const world = await api.world.otherOrganization()
  const admin = await api.tokenFor(world, 'org_admin')
  const settings = await api.call('PUT', '/api/organizations/settings', { token: admin, body: { confirmRequests } })
  expect(settings.status).toBe(200)
  return { world, slug: settings.body.slug, admin }
}

describe('the confirmation to the person who asked', () => {
  test('a public need with a phone: a text in the person’s language, recorded on the need', async () => {
    const { world, admin } = await organization(true)
    const phone = '+15550104401'
    const created = await api.call('POST', '/api/needs/public', {
      body: {
        organizationId: world.organizationId,
        description: 'Necesito comida',
        customFields: { firstName: 'Rosa', phone },
        language: 'es',
      },
    })
    expect(created.status).toBe(201)
    const reference = created.body.referenceNumber as string
    const [text] = await deliverUntil(api, () => (textsTo(phone).length > 0 ? textsTo(phone) : undefined), 'the confirmation text')
    expect(text!.body).toContain(`recibimos su solicitud de ayuda. Su número de referencia es ${reference}.`)
    expect(text!.body).not.toContain('Rosa')
    const interactions = await api.call('GET', `/api/needs/${created.body.id}/interactions`, { token: admin })
    expect(interactions.body).toEqual([expect.objectContaining({ channel: 'sms', content: text!.body, deliveryStatus: 'sent' })])
  })

  test('the form with only an email: a mail in the page’s language, recorded on the need', async () => {
    const { slug, admin } = await organization(true)
    const email = 'only.mail@example.org'
    const page = await postForm(api, `/intake/${slug}?lang=es`, { description: 'Ayuda con la renta', email })
    expect(page.status).toBe(200)
    const reference = /class="reference">([^<]+)</.exec(page.text)![1]!
    const mail = await deliverUntil(api, () => loggedEmailsTo(api, email)[0], 'the confirmation mail')
    expect(mail.subject).toStartWith(`Su solicitud ${reference} a `)
    expect(mail.text).toContain(`Su número de referencia es ${reference}.`)
    expect(mail.text).not.toContain('renta')
    const interactions = await api.call('GET', `/api/needs/${reference}/interactions`, { token: admin })
    expect(interactions.body).toEqual([expect.objectContaining({ channel: 'email', content: mail.text })])
  })

  test('an organization that did not choose it sends nothing to the person', async () => {
    const { world } = await organization(false)
    const phone = '+15550104402'
    const email = 'not.told@example.org'
    const created = await api.call('POST', '/api/needs/public', {
      body: { organizationId: world.organizationId, description: 'Food', customFields: { phone, email } },
    })
    expect(created.status).toBe(201)
    // The staff's mail of the new need is queued beside where a confirmation would be: once it is out, so would that be.
    await deliverUntil(api, () => api.logs.find((line) => line.includes(created.body.referenceNumber)))
    expect(textsTo(phone)).toEqual([])
    expect(loggedEmailsTo(api, email)).toEqual([])
  })

  test('a language other than en or es is 400 naming /language', async () => {
    const { world } = await organization(true)
    const refused = await api.call('POST', '/api/needs/public', {
      body: { organizationId: world.organizationId, description: 'Food', language: 'fr' },
    })
    expectBadRequest(refused, '/language')
  })
})
