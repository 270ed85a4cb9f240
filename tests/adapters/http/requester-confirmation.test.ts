import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { deliverUntil, expectBadRequest, postForm } from './helpers'

// docs/api/needs.md "Public intake": the confirmation to the person who asked, over real HTTP (the JSON intake and
// the form), on SQLite and PostgreSQL; texts through Twilio and mail through Postmark, both played by msw.
// Through the log provider or the log fallback, which reach nobody, none is sent (the use case's tests).
const ACCOUNT_SID = `AC${'7'.repeat(32)}`
const sent = {
  texts: [] as Array<{ from: string; to: string; body: string }>,
  mails: [] as Array<{ To: string; Subject: string; TextBody: string }>,
}
const msw = setupServer(
  http.post(`https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`, async ({ request }) => {
    const form = new URLSearchParams(await request.text())
    const text = { from: form.get('From') ?? '', to: form.get('To') ?? '', body: form.get('Body') ?? '' }
    sent.texts.push(text)
    const sid = `SM${String(sent.texts.length).padStart(32, '0')}`
    return HttpResponse.json({ sid, account_sid: ACCOUNT_SID, ...text, status: 'queued' }, { status: 201 })
  }),
  http.post('https://api.postmarkapp.com/email', async ({ request }) => {
    sent.mails.push((await request.json()) as (typeof sent.mails)[number])
    return HttpResponse.json({ MessageID: crypto.randomUUID(), ErrorCode: 0, Message: 'OK' })
  }),
)

let api: TestServer
let numbers = 0
beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' })
  api = await startTestServer({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: 'twilio-auth-token-for-tests',
    RECIPIENT_MESSAGES_PER_HOUR: '2',
    // The tests send what is queued themselves: a worker of the server's own could hold a message, claimed but not yet sent, as they look.
    SERVE_RUNS_WORKER: 'false',
  })
})
afterAll(async () => {
  await api.stop()
  msw.close()
})

/** Runs the outbox until it is empty: whatever was queued has been sent. */
async function deliverEverything() {
  while ((await api.world.useCases.operations.dispatchOutbox.runOnce()) > 0);
}
const textsTo = (phone: string) => sent.texts.filter((text) => text.to === phone)
const mailsTo = (email: string) => sent.mails.filter((mail) => mail.To === email)

/** An organization of its own, confirming requests or not, with its slug and its admin's token. */
async function organization(confirmRequests: boolean): Promise<{ world: World; slug: string; admin: string }> {
  const world = await api.world.otherOrganization()
  const admin = await api.tokenFor(world, 'org_admin')
  const settings = await api.call('PUT', '/api/organizations/settings', { token: admin, body: { confirmRequests } })
  expect(settings.status).toBe(200)
  // A number to text from, and email settings: what makes a confirmation reach the person.
  await api.world.useCases.operations.setOrganizationPhoneNumber.execute(
    settings.body.slug,
    `+1555777${String(++numbers).padStart(4, '0')}`,
  )
  const email = { provider: 'postmark', apiKey: 'pm-secret-key-1234', fromEmail: 'help@example.org' }
  expect((await api.call('PUT', '/api/organizations/settings/email', { token: admin, body: email })).status).toBe(200)
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
    const mail = await deliverUntil(api, () => mailsTo(email)[0], 'the confirmation mail')
    expect(mail.Subject).toStartWith(`Su solicitud ${reference} a `)
    expect(mail.TextBody).toContain(`Su número de referencia es ${reference}.`)
    expect(mail.TextBody).not.toContain('renta')
    const interactions = await api.call('GET', `/api/needs/${reference}/interactions`, { token: admin })
    expect(interactions.body).toEqual([expect.objectContaining({ channel: 'email', content: mail.TextBody })])
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
    await deliverUntil(api, () => sent.mails.find((mail) => mail.Subject.includes(created.body.referenceNumber)))
    expect(textsTo(phone)).toEqual([])
    expect(mailsTo(email)).toEqual([])
  })

  test('one number is texted at most RECIPIENT_MESSAGES_PER_HOUR confirmations by every organization together: past it the answer is the same, and nothing is recorded', async () => {
    const [first, second] = [await organization(true), await organization(true)]
    const phone = '+15550104403'
    const ask = (o: { world: World }) =>
      api.call('POST', '/api/needs/public', {
        body: { organizationId: o.world.organizationId, description: 'Food', customFields: { phone } },
      })
    const answers = [await ask(first), await ask(second), await ask(first)]
    const [told, , heldBack] = answers
    for (const answer of answers) expect(answer.status).toBe(201)
    expect(Object.keys(heldBack!.body).sort()).toEqual(Object.keys(told!.body).sort())
    await deliverEverything()
    expect(textsTo(phone)).toHaveLength(2)
    const interactions = await api.call('GET', `/api/needs/${heldBack!.body.id}/interactions`, { token: first.admin })
    expect(interactions.body).toEqual([])
  })

  test('the forms of one mailbox are mailed at most that many by every organization together; the page tells nothing of it', async () => {
    const [first, second] = [await organization(true), await organization(true)]
    const forms = ['Rosa.Perez@gmail.com', 'rosaperez+ayuda@googlemail.com', '"rosa.perez"@gmail.com']
    const pages = []
    for (const [o, email] of [
      [first, forms[0]],
      [second, forms[1]],
      [first, forms[2]],
    ] as const)
      pages.push(await postForm(api, `/intake/${o.slug}?lang=es`, { description: 'Ayuda con la renta', email: email! }))
    const references = pages.map((page) => /class="reference">([^<]+)</.exec(page.text)![1]!)
    await deliverEverything()
    expect(
      sent.mails
        .filter((mail) => forms.includes(mail.To))
        .map((mail) => mail.To)
        .sort(),
    ).toEqual(forms.slice(0, 2).sort())
    // The same page, but for its reference number, whether the mail went or not.
    const [told, , heldBack] = pages.map((page, i) => page.text.replaceAll(references[i]!, 'REF'))
    expect(heldBack).toBe(told!)
  })

  test('a language other than en or es is 400 naming /language', async () => {
    const { world } = await organization(true)
    const refused = await api.call('POST', '/api/needs/public', {
      body: { organizationId: world.organizationId, description: 'Food', language: 'fr' },
    })
    expectBadRequest(refused, '/language')
  })
})
