import { beforeEach, describe, expect, test } from 'bun:test'
import type { PublicNeed, PublicNeedInput } from '../../../src/application/needs/submit-public-need'
import { CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR } from '../../../src/application/needs/requester-confirmation'
import { InvalidError } from '../../../src/domain/errors'
import { failureOf, pathsOf } from '../failure-of'
import type { EmailSenders } from '../../../src/application/messaging/organization-mailer'
import { EMAIL_PROVIDERS, type EmailProvider } from '../../../src/domain/messaging/email'
import { RecordingSender } from '../mail-world'
import { createSmsWorld, PUBLIC_BASE_URL, VALID_SIGNATURE, type SmsWorld } from '../sms-world'
import type { World } from '../../support/world'

// docs/api/needs.md "Public intake": the person who asked is told its reference number and what happens next.
const ORG_NUMBER = '+15557770000'
const PHONE = '+15550001111'
const EMAIL = 'ana.person@example.org'
const STORY = 'We have no food left'
let world: SmsWorld
let staffEmail: string
let postmark: RecordingSender
/** A world whose texts and mails reach people: an SMS provider that sends from the organization's number, and email settings. */
async function reachingWorld(env: Record<string, string> = {}): Promise<SmsWorld> {
  postmark = new RecordingSender('postmark')
  const emailSenders = Object.fromEntries(EMAIL_PROVIDERS.map((p) => [p, p === 'postmark' ? postmark : new RecordingSender(p)])) as Record<
    EmailProvider,
    RecordingSender
  > satisfies EmailSenders
  const created = await createSmsWorld({
    env: { SMS_PER_RECIPIENT_PER_HOUR: '3', ...env },
    senderNumberRequired: true,
    emailSenders,
  })
  await created.configureOrganization({ phoneNumber: ORG_NUMBER })
  await created.useCases.organizations.updateEmail.execute(created.admin, {
    provider: 'postmark',
    apiKey: 'pm-secret-key-1234',
    fromEmail: 'help@example.org',
  })
  return created
}
beforeEach(async () => {
  world = await reachingWorld()
  staffEmail = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!.email
})

const confirming = (confirmRequests = true) => world.useCases.organizations.updateSettings.execute(world.admin, { confirmRequests })
const submit = (customFields: Record<string, unknown>, more: Partial<PublicNeedInput> = {}) =>
  world.useCases.needs.submitPublic.execute({ organizationId: world.organizationId, description: STORY, customFields, ...more })
const organizationName = async () => (await world.repositories.organizations.findById(world.organizationId))!.name
/** The mails the provider took for anyone but the staff (who hear of every public need). */
const mails = () => postmark.delivered.map((d) => d.message).filter((message) => message.to !== staffEmail)
/** What the worker sent once the outbox is empty: the texts and the mails the providers took. */
async function sent() {
  while ((await world.dispatcher.runOnce()) > 0);
  return { texts: world.sms.accepted, mails: mails() }
}

test('off by default: nothing is sent to the person', async () => {
  await submit({ firstName: 'Ana', phone: PHONE, email: EMAIL })
  expect(await sent()).toEqual({ texts: [], mails: [] })
})

describe('with confirmations on', () => {
  beforeEach(() => confirming())

  test('a phone is texted the reference number and what happens next, recorded on the need as staff texts are', async () => {
    const need = await submit({ firstName: 'Ana', lastName: 'Ruiz', phone: PHONE, email: EMAIL })
    const { texts, mails } = await sent()
    const body = `${await organizationName()}: we received your request for help. Your reference number is ${need.referenceNumber}. Our staff read every request and will contact you. Reply STOP to receive no more texts.`
    expect(texts.map(({ from, to, body }) => ({ from, to, body }))).toEqual([{ from: ORG_NUMBER, to: PHONE, body }])
    expect(mails).toEqual([])
    expect(await world.interactionsOfNeed(need.id)).toEqual([
      expect.objectContaining({
        channel: 'sms',
        direction: 'outbound',
        content: body,
        senderIdentifier: ORG_NUMBER,
        deliveryStatus: 'sent',
      }),
    ])
  })

  test('in the language the person asked in', async () => {
    const need = await submit({ phone: PHONE }, { language: 'es' })
    const [text] = (await sent()).texts
    expect(text!.body).toStartWith(
      `${await organizationName()}: recibimos su solicitud de ayuda. Su número de referencia es ${need.referenceNumber}.`,
    )
    expect(text!.body).toEndWith('Responda STOP para no recibir más mensajes.')
  })

  test('only an email: a mail with the reference number and what happens next, nothing else of the person', async () => {
    const need = await submit({ firstName: 'Ana', lastName: 'Ruiz', email: EMAIL }, { language: 'es' })
    const { texts, mails } = await sent()
    expect(texts).toEqual([])
    expect(mails).toEqual([
      expect.objectContaining({
        to: EMAIL,
        subject: `Su solicitud ${need.referenceNumber} a ${await organizationName()}`,
        text: expect.stringContaining(`Su número de referencia es ${need.referenceNumber}.`),
      }),
    ])
    for (const personal of ['Ana', 'Ruiz', STORY]) expect(JSON.stringify(mails)).not.toContain(personal)
  })

  test('a number that replied STOP is not texted: the email is used when given, else nothing', async () => {
    await world.useCases.sms.receive.execute({
      url: `${PUBLIC_BASE_URL}/api/webhooks/twilio/sms`,
      params: { From: PHONE, To: ORG_NUMBER, Body: 'STOP', MessageSid: `SM${'1'.repeat(32)}` },
      signature: VALID_SIGNATURE,
    })
    await submit({ phone: PHONE })
    const need = await submit({ phone: PHONE, email: EMAIL })
    const { texts, mails } = await sent()
    expect(texts).toEqual([])
    expect(mails).toEqual([expect.objectContaining({ to: EMAIL, subject: expect.stringContaining(need.referenceNumber) })])
  })

  test('one number is texted at most its hourly share, however many forms name it', async () => {
    for (let i = 0; i < 5; i++) await submit({ phone: PHONE })
    expect((await sent()).texts).toHaveLength(3)
  })

  test(`one address is mailed at most ${CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR} confirmations an hour, in any case; the mail is on the need`, async () => {
    const first = await submit({ email: EMAIL })
    for (let i = 1; i <= CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR; i++) await submit({ email: i % 2 ? EMAIL.toUpperCase() : EMAIL })
    expect((await sent()).mails).toHaveLength(CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR)
    expect(await world.interactionsOfNeed(first.id)).toEqual([
      expect.objectContaining({ channel: 'email', direction: 'outbound', content: expect.stringContaining(first.referenceNumber) }),
    ])
    world.clock.advance(3_600_000)
    await submit({ email: EMAIL })
    expect((await sent()).mails).toHaveLength(CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR + 1)
  })

  test(`the forms of one mailbox share its ${CONFIRMATION_MAILS_PER_ADDRESS_PER_HOUR} an hour; each mail goes to the address as given`, async () => {
    const forms = ['x+1@example.org', '"x"@example.org', 'X@Example.ORG', 'x+2@example.org', 'x@example.org']
    const gmail = ['Ana.Ruiz@gmail.com', 'anaruiz+help@googlemail.com', 'a.n.a.r.u.i.z@GMAIL.com', 'anaruiz@gmail.com']
    for (const email of [...forms, ...gmail]) await submit({ email })
    const to = (await sent()).mails.map((mail) => mail.to)
    expect(to).toEqual([...forms.slice(0, 3), ...gmail.slice(0, 3)])
  })

  test('no contact, or a constituent already on file (the need names it), is sent nothing', async () => {
    const ana = await world.constituent({ firstName: 'Ana', phone: PHONE })
    await submit({})
    await submit({ phone: PHONE }, { constituentId: ana.id })
    expect(await sent()).toEqual({ texts: [], mails: [] })
  })

  test('with no number of the organization to send from: the email, else nothing', async () => {
    await world.configureOrganization({ phoneNumber: undefined })
    await submit({ phone: PHONE })
    const need = await submit({ phone: PHONE, email: EMAIL })
    const { texts, mails } = await sent()
    expect(texts).toEqual([])
    expect(mails).toEqual([expect.objectContaining({ to: EMAIL, subject: expect.stringContaining(need.referenceNumber) })])
  })

  test('through the log provider and the log fallback, which reach nobody, nothing: the person’s contact stays out of the log', async () => {
    const logOnly = await createSmsWorld()
    await logOnly.configureOrganization({ phoneNumber: ORG_NUMBER })
    await logOnly.useCases.organizations.updateSettings.execute(logOnly.admin, { confirmRequests: true })
    const need = await logOnly.useCases.needs.submitPublic.execute({
      organizationId: logOnly.organizationId,
      description: STORY,
      customFields: { phone: PHONE, email: EMAIL },
    })
    while ((await logOnly.dispatcher.runOnce()) > 0);
    expect(logOnly.sms.accepted).toEqual([])
    expect(JSON.stringify(logOnly.logs)).not.toContain(EMAIL)
    expect(JSON.stringify(logOnly.logs)).not.toContain(PHONE)
    expect(await logOnly.interactionsOfNeed(need.id)).toEqual([])
  })
})

describe('across organizations, one person is sent at most RECIPIENT_MESSAGES_PER_HOUR confirmations of each kind', () => {
  const OTHER_NUMBER = '+15557770001'
  beforeEach(async () => {
    world = await reachingWorld({ RECIPIENT_MESSAGES_PER_HOUR: '4' })
    await confirming()
  })

  /** Another organization of the deployment that confirms requests, with its own number and email settings. */
  async function confirmingOrganization(): Promise<World> {
    const other = await world.otherOrganization()
    const { slug } = (await world.repositories.organizations.findById(other.organizationId))!
    await other.useCases.operations.setOrganizationPhoneNumber.execute(slug, OTHER_NUMBER)
    await other.useCases.organizations.updateEmail.execute(other.admin, {
      provider: 'postmark',
      apiKey: 'pm-other-key-5678',
      fromEmail: 'help@example.net',
    })
    await other.useCases.organizations.updateSettings.execute(other.admin, { confirmRequests: true })
    return other
  }
  const submitTo = (other: World, customFields: Record<string, unknown>) =>
    world.useCases.needs.submitPublic.execute({ organizationId: other.organizationId, description: STORY, customFields })

  test('mails to one mailbox count together; one held back is recorded nowhere, and its answer is any other’s', async () => {
    const other = await confirmingOrganization()
    const here = ['x@example.org', 'X+1@example.org', '"x"@example.org']
    const there = ['x+2@example.org', 'x+3@example.org']
    for (const email of here) await submit({ email })
    const answers = []
    for (const email of there) answers.push(await submitTo(other, { email }))
    const to = (await sent()).mails.map((mail) => mail.to).filter((address) => [...here, ...there].includes(address))
    expect(to.sort()).toEqual([...here, there[0]!].sort())
    const [told, heldBack] = answers
    const interactions = (need: PublicNeed) =>
      world.repositories.interactions.listByNeed(other.organizationId, need.id, { page: 1, limit: 10 })
    expect((await interactions(told!)).items).toHaveLength(1)
    expect((await interactions(heldBack!)).items).toEqual([])
    expect(Object.keys(heldBack!).sort()).toEqual(Object.keys(told!).sort())
  })

  test('texts to one number count together, by its E.164 number', async () => {
    const other = await confirmingOrganization()
    for (let i = 0; i < 3; i++) await submit({ phone: PHONE })
    for (let i = 0; i < 3; i++) await submitTo(other, { phone: PHONE })
    const texts = (await sent()).texts
    expect(texts.map(({ to }) => to)).toEqual(Array(4).fill(PHONE))
    expect(texts.map(({ from }) => from).sort()).toEqual([ORG_NUMBER, ORG_NUMBER, ORG_NUMBER, OTHER_NUMBER])
  })

  test('texts and mails are counted apart, and each person apart', async () => {
    const other = await confirmingOrganization()
    for (let i = 0; i < 3; i++) await submit({ phone: PHONE })
    for (let i = 0; i < 3; i++) await submit({ email: 'x@example.org' })
    for (const customFields of [{ phone: PHONE }, { email: 'x+9@example.org' }, { phone: PHONE }, { phone: '+15550002222' }])
      await submitTo(other, customFields)
    const { texts, mails } = await sent()
    expect(texts.map(({ to }) => to).sort()).toEqual([...Array(4).fill(PHONE), '+15550002222'].sort())
    expect(mails.map(({ to }) => to).filter((to) => to.startsWith('x'))).toHaveLength(4)
  })
})

test('a language other than en or es is Invalid at /language, and nothing is recorded', async () => {
  const error = await failureOf(submit({ phone: PHONE }, { language: 'fr' as never }), InvalidError)
  expect(pathsOf(error)).toEqual(['/language'])
})
