import { describe, expect, test } from 'bun:test'
import { openEventStream } from '../../support/event-stream'
import { withoutTexting } from './helpers'
import {
  admin,
  api,
  drain,
  expectTwiml,
  inbound,
  interaction,
  interactions,
  needFor,
  newPhone,
  openSmsServer,
  queued,
  setPhoneNumber,
  webhook,
  world,
} from './sms-support'

// docs/api/organization.md "Messages" and "SMS", docs/api/needs.md "Attention": conversations by text, end to end
// through Twilio's signed webhooks and Twilio's API as msw plays it.
openSmsServer()

const SMS_HOOK = '/api/webhooks/twilio/sms'
const STATUS_HOOK = '/api/webhooks/twilio/status'

interface MessageJson {
  id: string
  body: string
  receivedAt: string
  from?: string
}

async function messages(token = admin): Promise<{ items: MessageJson[]; total: number }> {
  const response = await api.call<MessageJson[]>('GET', '/api/messages?unattached=true&limit=100', { token })
  expect(response.status).toBe(200)
  return { items: response.body, total: Number(response.headers.get('x-total-count')) }
}

const fromNumber = async (phone: string) => (await messages()).items.filter((m) => m.from === phone)

describe('texts nobody has picked up', () => {
  test('two texts from an unknown number are listed, newest first; a need started from one takes both', async () => {
    const phone = newPhone()
    const before = (await messages()).total
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Hello, is this the food bank?')))
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'We have no food left')))

    const listed = await fromNumber(phone)
    expect(listed.map((m) => m.body)).toEqual(['We have no food left', 'Hello, is this the food bank?'])
    expect((await messages()).total).toBe(before + 2)

    const started = await api.call<{ id: string; constituentId?: string; customFields: Record<string, unknown> }>(
      'POST',
      `/api/messages/${listed[1]!.id}/need`,
      { token: admin, body: { partnerId: world.defaultPartner.id, description: 'Food for a family of four' } },
    )
    expect(started.status).toBe(201)
    const need = (await api.call<{ id: string }>('GET', `/api/needs/${started.body.id}`, { token: admin })).body
    expect(started.body).toEqual(withoutTexting(need as typeof started.body))
    expect(started.body.customFields).toMatchObject({ description: 'Food for a family of four', phone })
    expect(started.body.constituentId).toBeDefined()
    expect((await interactions(started.body.id)).map((i) => i.content)).toEqual(['Hello, is this the food bank?', 'We have no food left'])
    expect(await fromNumber(phone)).toEqual([])
    expect((await messages()).total).toBe(before)
  })

  test('a reply shows queued with the member who sent it, then delivered; it goes on the need the texts are put on', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    // The person's text came before the need knew their number: on no need.
    const other = newPhone()
    expectTwiml(await webhook(SMS_HOOK, inbound(other, 'Can someone call me?')))
    const [message] = await fromNumber(other)
    const reply = await api.call<{ interactionId: string }>('POST', `/api/messages/${message!.id}/reply`, {
      token: admin,
      body: { body: 'Yes, today at 3' },
    })
    expect(reply.status).toBe(202)
    expect((await api.call('POST', `/api/messages/${message!.id}/attach`, { token: admin, body: { needId } })).status).toBe(204)

    const me = (await api.call<{ id: string; fullName?: string; email: string }>('GET', '/api/profile', { token: admin })).body
    expect(await interaction(needId, reply.body.interactionId)).toMatchObject({
      content: 'Yes, today at 3',
      deliveryStatus: 'queued',
      sentBy: { id: me.id, fullName: me.fullName ?? me.email },
      recipient: other,
    })
    const [inboundText] = await interactions(needId)
    expect(inboundText).toMatchObject({ content: 'Can someone call me?' })
    expect(inboundText).not.toHaveProperty('sentBy')

    await drain()
    const sid = (await interaction(needId, reply.body.interactionId))!.providerMessageId!
    expect((await webhook(STATUS_HOOK, { MessageSid: sid, MessageStatus: 'delivered' })).status).toBe(204)
    expect(await interaction(needId, reply.body.interactionId)).toMatchObject({ deliveryStatus: 'delivered' })
    expect(await interaction(needId, reply.body.interactionId)).not.toHaveProperty('deliveryError')
  })

  test('a failed status callback gives the reason in words; an unknown code is named', async () => {
    const needId = await needFor(newPhone())
    const landline = await queued(needId, 'Your box is ready')
    const odd = await queued(needId, 'Your box is still ready')
    await drain()
    const sidOf = async (id: string) => (await interaction(needId, id))!.providerMessageId!
    const failed = { MessageStatus: 'undelivered', ErrorMessage: 'Unreachable' }
    expect((await webhook(STATUS_HOOK, { MessageSid: await sidOf(landline), ErrorCode: '30006', ...failed })).status).toBe(204)
    expect((await webhook(STATUS_HOOK, { MessageSid: await sidOf(odd), ErrorCode: '39999', ...failed })).status).toBe(204)
    expect(await interaction(needId, landline)).toMatchObject({
      deliveryStatus: 'failed',
      deliveryError: 'The number is a landline or its carrier cannot receive texts',
    })
    expect((await interaction(needId, odd))?.deliveryError).toBe('The provider could not deliver this text (code 39999)')
  })

  test('the number is left out for members who may not read phone numbers', async () => {
    const phone = newPhone()
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Anyone there?')))
    const texter = await api.tokenFor(world, 'staff', { profiles: ['sms_communicator'] })
    const [seen] = await fromNumber(phone)
    const theirs = (await messages(texter)).items.find((m) => m.id === seen!.id)
    expect(theirs).toEqual({ id: seen!.id, body: 'Anyone there?', receivedAt: seen!.receivedAt })
    expect((await api.call('GET', '/api/messages', { token: await api.tokenFor(world, 'staff') })).status).toBe(403)
  })

  test("another organization's message is not found, to attach, start a need from or reply to", async () => {
    const other = await world.otherOrganization()
    const otherNumber = newPhone()
    await setPhoneNumber(other, otherNumber)
    const phone = newPhone()
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'For the other one', otherNumber)))
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const theirs = (await messages(otherAdmin)).items.find((m) => m.from === phone)!
    expect(await fromNumber(phone)).toEqual([])

    const needId = await needFor(newPhone())
    const calls = [
      ['attach', { needId }],
      ['need', { partnerId: world.defaultPartner.id }],
      ['reply', { body: 'Hello' }],
    ] as const
    for (const [action, body] of calls) {
      expect((await api.call('POST', `/api/messages/${theirs.id}/${action}`, { token: admin, body })).status).toBe(404)
    }
    expect((await messages(otherAdmin)).items.map((m) => m.id)).toContain(theirs.id)
  })
})

describe('the live stream', () => {
  test('a text on no need reaches whoever may send texts, a partner role too; its attachment, and a status, name the need', async () => {
    const partner = await world.partner()
    const [texter, reader] = await Promise.all([
      api.tokenFor(world, 'partner_agent', { partnerId: partner.id, profiles: ['sms_communicator'] }),
      api.tokenFor(world, 'staff'),
    ])
    const [texterStream, readerStream, adminStream] = await Promise.all([
      openEventStream(api.url, texter),
      openEventStream(api.url, reader),
      openEventStream(api.url, admin),
    ])
    try {
      const phone = newPhone()
      expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Hi there')))
      const [message] = await fromNumber(phone)
      const received = await texterStream.next((e) => e.event === 'sms.received')
      expect(received.data).toEqual({ interactionId: message!.id })

      const needId = await needFor(newPhone())
      expect((await api.call('POST', `/api/messages/${message!.id}/attach`, { token: admin, body: { needId } })).status).toBe(204)
      // Another partner's need: the texter hears its text went, the need's readers hear where.
      const attached = { event: 'message.attached', data: { interactionId: message!.id, needId } }
      expect(await texterStream.next((e) => e.event === 'message.attached')).toMatchObject(attached)
      expect(await readerStream.next((e) => e.event === 'message.attached')).toMatchObject(attached)
      expect(readerStream.received.some((e) => e.event === 'sms.received')).toBe(false)

      const sent = await queued(needId, 'On its way')
      await drain()
      const status = await adminStream.next((e) => e.event === 'sms.status' && (e.data as { interactionId: string }).interactionId === sent)
      expect(status.data).toEqual({ interactionId: sent, status: 'sent', needId })
    } finally {
      for (const stream of [texterStream, readerStream, adminStream]) stream.close()
    }
  })
})

describe('needs marked for attention', () => {
  test('a text to a person whose needs are all resolved marks the newest; ?attention=true finds it; opening it to act on it, or a note, clears it', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    expect((await api.call('PUT', `/api/needs/${needId}`, { token: admin, body: { status: 'RESOLVED' } })).status).toBe(200)
    expect((await api.call<{ needsAttention: boolean }>('GET', `/api/needs/${needId}`, { token: admin })).body.needsAttention).toBe(false)

    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'The heater broke again')))
    const attention = async () =>
      (await api.call<Array<{ id: string }>>('GET', '/api/needs?attention=true&limit=100', { token: admin })).body.map((n) => n.id)
    expect(await attention()).toContain(needId)
    expect((await interactions(needId)).map((i) => i.content)).toEqual(['The heater broke again'])

    // A volunteer glancing at it (who may not act on it) leaves it marked.
    const volunteer = await api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id })
    expect((await api.call<{ needsAttention: boolean }>('GET', `/api/needs/${needId}`, { token: volunteer })).body.needsAttention).toBe(
      true,
    )
    expect(await attention()).toContain(needId)
    // Opened by a member who may act on it: answered as it was (why it was marked shows), and no longer waiting.
    const marked = await api.call<{ status: string; needsAttention: boolean }>('GET', `/api/needs/${needId}`, { token: admin })
    expect(marked.body).toMatchObject({ status: 'RESOLVED', needsAttention: true })
    expect((await api.call<{ needsAttention: boolean }>('GET', `/api/needs/${needId}`, { token: admin })).body.needsAttention).toBe(false)
    expect(await attention()).not.toContain(needId)

    // Marked again, a note clears it too.
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Still broken')))
    expect(await attention()).toContain(needId)
    expect((await api.call('POST', `/api/needs/${needId}/notes`, { token: admin, body: { content: 'Calling back' } })).status).toBe(201)
    expect(await attention()).not.toContain(needId)
  })
})
