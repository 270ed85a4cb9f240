import { describe, expect, test } from 'bun:test'
import { expectBadRequest } from './helpers'
import {
  admin,
  api,
  clock,
  drain,
  expectTwiml,
  fake,
  inbound,
  interactions,
  needFor,
  newPhone,
  ORG_NUMBER,
  openSmsServer,
  queued,
  text,
  webhook,
  world,
} from './sms-support'

// docs/api/organization.md "SMS" and docs/api/needs.md "Texting a need": STOP and ALTO stop a number's texts, START and
// COMENZAR bring them back, HELP and AYUDA are answered once a day, over real HTTP through Twilio's signed webhooks
// (the service's own signature check) and Twilio's API as msw plays it.
openSmsServer()

const SMS_HOOK = '/api/webhooks/twilio/sms'
const DAY_MS = 24 * 3_600_000

interface NeedJson {
  canText: boolean
  cannotTextReason?: string
  textsStoppedAt?: string
  constituentId?: string
}

const need = async (id: string, token = admin) => (await api.call<NeedJson>('GET', `/api/needs/${id}`, { token })).body

async function textIn(from: string, body: string): Promise<Record<string, string>> {
  const params = inbound(from, body)
  expectTwiml(await webhook(SMS_HOOK, params))
  return params
}

/** What Twilio was asked to send to `phone`, once the outbox is sent. */
async function sentTo(phone: string): Promise<string[]> {
  await drain()
  return fake.to(phone).map((r) => r.body)
}

describe('STOP, ALTO and their way back', () => {
  for (const [stop, start] of [
    ['STOP', 'START'],
    ['alto', 'Comenzar'],
    ['Baja', 'sí'],
  ]) {
    test(`${stop} refuses staff texts (400), the need answers canText false, opted-out, since when; ${start} texts again`, async () => {
      const phone = newPhone()
      const needId = await needFor(phone)
      expect(await need(needId)).toMatchObject({ canText: true })
      expect(await need(needId)).not.toHaveProperty('cannotTextReason')

      const stoppedAt = clock.now().toISOString()
      await textIn(phone, stop!)

      expect(expectBadRequest(await text(needId, { body: 'Your box is ready' })).detail).toContain('opted out')
      expect(await need(needId)).toMatchObject({ canText: false, cannotTextReason: 'opted-out', textsStoppedAt: stoppedAt })
      const { constituentId } = await need(needId)
      const constituent = await api.call<{ textsStoppedAt?: string }>('GET', `/api/constituents/${constituentId}`, { token: admin })
      expect(constituent.body.textsStoppedAt).toBe(stoppedAt)
      expect((await interactions(needId)).map((i) => i.senderIdentifier)).toEqual([phone])

      await textIn(phone, start!)
      const back = await need(needId)
      expect(back.canText).toBe(true)
      expect(back).not.toHaveProperty('textsStoppedAt')
      await queued(needId, 'Your box is ready')
      expect(await sentTo(phone)).toEqual(['Your box is ready'])
    })
  }
})

describe('HELP and AYUDA', () => {
  const answer = async (how: string) => {
    const { name } = (await world.repositories.organizations.findById(world.organizationId))!
    return expect.stringMatching(new RegExp(`^${name}: .*${how}`))
  }
  const English = () => answer('Reply STOP to receive no more texts')
  const Spanish = () => answer('Responda ALTO para no recibir más mensajes')

  test('HELP is answered in English with the organization and how to stop, once within 24 hours; after them, again', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    await textIn(phone, 'HELP')
    const [english] = await sentTo(phone)
    expect(english).toEqual(await English())
    // Recorded on the thread, as staff texts are.
    expect((await interactions(needId)).map((i) => [i.senderIdentifier, i.content])).toEqual([
      [phone, 'HELP'],
      [ORG_NUMBER, english],
    ])

    clock.advance(DAY_MS - 1000)
    await textIn(phone, 'help')
    expect(await sentTo(phone)).toHaveLength(1)

    clock.advance(1000)
    await textIn(phone, 'Help')
    expect(await sentTo(phone)).toEqual([english!, english!])
  })

  test('AYUDA is answered in Spanish, and shares the day with HELP', async () => {
    const phone = newPhone()
    await textIn(phone, 'ayuda')
    const answers = await sentTo(phone)
    expect(answers).toHaveLength(1)
    expect(answers).toEqual([await Spanish()])
    await textIn(phone, 'HELP')
    expect(await sentTo(phone)).toHaveLength(1)
  })

  test('an opted-out number is still answered (carriers require it), and stays opted out', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    await textIn(phone, 'STOP')
    await textIn(phone, 'HELP')
    expect(await sentTo(phone)).toEqual([await English()])
    expect(await need(needId)).toMatchObject({ canText: false, cannotTextReason: 'opted-out' })
  })

  test('a webhook Twilio sends again, even a day later, answers nothing more', async () => {
    const phone = newPhone()
    const params = await textIn(phone, 'HELP')
    expectTwiml(await webhook(SMS_HOOK, params))
    clock.advance(DAY_MS)
    expectTwiml(await webhook(SMS_HOOK, params))
    expect(await sentTo(phone)).toHaveLength(1)
  })

  test('HELP inside a sentence is only a message', async () => {
    const phone = newPhone()
    await textIn(phone, 'I need help with rent')
    expect(await sentTo(phone)).toEqual([])
  })
})

describe('why a need cannot be texted (cannotTextReason)', () => {
  test('no-phone: a need without a constituent, or whose constituent has no phone', async () => {
    const bare = await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId: world.defaultPartner.id } })
    expect(await need(bare.body.id)).toEqual(expect.objectContaining({ canText: false, cannotTextReason: 'no-phone' }))
    expect(await need(await needFor(null))).toMatchObject({ canText: false, cannotTextReason: 'no-phone' })
  })

  test('no-sms-number: an organization without its number, until an operator sets it', async () => {
    const numberless = await world.otherOrganization()
    const token = await api.tokenFor(numberless, 'org_admin')
    const needId = await needFor(newPhone(), token, numberless)
    expect(await need(needId, token)).toMatchObject({ canText: false, cannotTextReason: 'no-sms-number' })
    expect(expectBadRequest(await text(needId, { body: 'Hello' }, token)).detail).toContain('no SMS number')
  })

  test('a member who may read the need but not text reads canText too', async () => {
    const volunteer = await api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id })
    expect(await need(await needFor(newPhone()), volunteer)).toMatchObject({ canText: true })
  })
})
