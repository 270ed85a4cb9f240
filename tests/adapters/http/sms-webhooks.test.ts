import { describe, expect, test } from 'bun:test'
import twilio from 'twilio'
import { expectBadRequest, expectProblem, seedConstituent } from './helpers'
import { admin, api, clock, fake, openSmsServer, world } from './sms-support'
import { ACCOUNT_SID, AUTH_TOKEN, drain, expectTwiml, inbound, interaction, interactions, needFor, newPhone } from './sms-support'
import { ORG_NUMBER, PUBLIC_BASE_URL, queued, setPhoneNumber, text, webhook } from './sms-support'

// docs/api/organization.md "SMS" and docs/api/access.md "Permissions": what Twilio calls the service with, inbound texts and
// delivery status,
// over real HTTP. Anyone can reach these routes, so only Twilio's signature over PUBLIC_BASE_URL lets a call
// change anything, and a number shows only to whom may read the person's phone.
openSmsServer()

describe('Twilio webhooks', () => {
  const SMS_HOOK = '/api/webhooks/twilio/sms'
  const STATUS_HOOK = '/api/webhooks/twilio/status'

  test("a correctly signed inbound text answers empty TwiML and lands on the constituent's newest open need", async () => {
    const phone = newPhone()
    const { constituentId } = await seedConstituent(api, admin, { firstName: 'Ida', lastName: 'Wells', phone })
    const newNeed = async () =>
      (await api.call<{ id: string }>('POST', '/api/needs', { token: admin, body: { partnerId: world.defaultPartner.id, constituentId } }))
        .body.id
    const older = await newNeed()
    clock.advance(1_000)
    const newest = await newNeed()
    clock.advance(1_000)
    const resolved = await newNeed()
    expect((await api.call('PUT', `/api/needs/${resolved}`, { token: admin, body: { status: 'RESOLVED' } })).status).toBe(200)

    const params = inbound(phone, 'Is the pantry open on Saturday?')
    expectTwiml(await webhook(SMS_HOOK, params))

    expect(await interactions(older)).toEqual([])
    expect(await interactions(resolved)).toEqual([])
    expect(await interactions(newest)).toEqual([
      expect.objectContaining({
        organizationId: world.organizationId,
        needId: newest,
        partnerId: world.defaultPartner.id,
        channel: 'sms',
        senderIdentifier: phone,
        content: 'Is the pantry open on Saturday?',
        providerMessageId: params.MessageSid,
      }),
    ])
    expect((await interactions(newest))[0]).not.toHaveProperty('deliveryStatus')
  })

  test('the same inbound text delivered several times at once is kept once; a delivery that loses the race is a 409 problem, never a 500', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const params = inbound(phone, 'Are you open today?')

    const answers = await Promise.all(Array.from({ length: 4 }, () => webhook(SMS_HOOK, params)))
    for (const answer of answers) {
      if (answer.status === 200) expectTwiml(answer)
      else {
        expect(answer.status).toBe(409)
        expect(answer.headers.get('content-type')).toStartWith('application/problem+json')
      }
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    expect((await interactions(needId)).map((i) => i.providerMessageId)).toEqual([params.MessageSid])
  })

  test("an inbound text's number shows, as its sender, only to roles that may read the person's phone", async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Thank you')))
    const [staff, volunteer, agent, partnerAdmin, communicator] = await Promise.all([
      api.tokenFor(world, 'staff'),
      api.tokenFor(world, 'volunteer', { partnerId: world.defaultPartner.id }),
      api.tokenFor(world, 'partner_agent', { partnerId: world.defaultPartner.id }),
      api.tokenFor(world, 'partner_admin', { partnerId: world.defaultPartner.id }),
      api.tokenFor(world, 'staff', { profiles: ['email_phone_communicator'] }),
    ])
    for (const token of [admin, partnerAdmin, communicator]) {
      expect(await interactions(needId, token)).toEqual([
        expect.objectContaining({ channel: 'sms', senderIdentifier: phone, content: 'Thank you' }),
      ])
    }
    for (const token of [staff, volunteer, agent]) {
      const [text] = await interactions(needId, token)
      expect(text).toMatchObject({ channel: 'sms', content: 'Thank you' })
      expect(text).not.toHaveProperty('senderIdentifier')
    }
  })

  test('a wrong or missing signature is a 403 problem and nothing is stored', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const params = inbound(phone, 'STOP')
    const local = `${api.url}${SMS_HOOK}`
    const forgeries: Array<[string, string | null]> = [
      ['no signature', null],
      ['an empty signature', ''],
      ['signed with another token', twilio.getExpectedTwilioSignature('not-the-token', `${PUBLIC_BASE_URL}${SMS_HOOK}`, params)],
      ['signed over the local address, not PUBLIC_BASE_URL', twilio.getExpectedTwilioSignature(AUTH_TOKEN, local, params)],
      [
        'signed for other parameters',
        twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${SMS_HOOK}`, { ...params, Body: 'Hello' }),
      ],
      ['signed for the status hook', twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${STATUS_HOOK}`, params)],
    ]
    for (const [name, signature] of forgeries) {
      const response = await webhook(SMS_HOOK, params, signature)
      expect({ name, status: response.status }).toEqual({ name, status: 403 })
      expectProblem(response, 403, 'Forbidden')
    }
    expect(await interactions(needId)).toEqual([])
    // The forged STOPs opted nobody out.
    expect((await text(needId, { body: 'Still reachable' })).status).toBe(202)
  })

  test('STOP opts the number out (sending is 400); START opts it back in; other organizations are not affected', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const other = await world.otherOrganization()
    const otherNumber = newPhone()
    await setPhoneNumber(other, otherNumber)
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const otherNeed = await needFor(phone, otherAdmin, other)

    expectTwiml(await webhook(SMS_HOOK, inbound(phone, '  stop ')))
    const refused = expectBadRequest(await text(needId, { body: 'Are you there?' }))
    expect(refused.detail).toContain('opted out')
    // The organization keeps its own list: the other one may still text the same number.
    expect((await text(otherNeed, { body: 'From the other organization' }, otherAdmin)).status).toBe(202)
    // A STOP to a number no organization has changes nothing.
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'STOP', '+15559999999')))
    expect((await text(otherNeed, { body: 'Still from the other organization' }, otherAdmin)).status).toBe(202)

    clock.advance(1_000)
    expectTwiml(await webhook(SMS_HOOK, inbound(phone, 'Start')))
    const id = await queued(needId, 'Welcome back')
    await drain()
    expect(
      fake
        .to(phone)
        .filter((r) => r.from === ORG_NUMBER)
        .map((r) => r.body),
    ).toEqual(['Welcome back'])
    expect((await interaction(needId, id))?.deliveryStatus).toBe('sent')
    // The keywords themselves are kept on the need, like any message.
    const inboundContents = (await interactions(needId)).filter((i) => i.senderIdentifier === phone).map((i) => i.content)
    expect(inboundContents).toEqual(['  stop ', 'Start'])
  })

  test('a signed status callback moves the interaction to delivered; an unsigned one changes nothing; delivered stays delivered', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Track me')
    await drain()
    const sid = (await interaction(needId, interactionId))!.providerMessageId!
    expect(sid).toStartWith('SM')
    const status = (messageStatus: string) => ({
      AccountSid: ACCOUNT_SID,
      MessageSid: sid,
      SmsSid: sid,
      MessageStatus: messageStatus,
      SmsStatus: messageStatus,
      From: ORG_NUMBER,
      To: phone,
      ApiVersion: '2010-04-01',
    })

    expectProblem(await webhook(STATUS_HOOK, status('delivered'), null), 403, 'Forbidden')
    expectProblem(
      await webhook(
        STATUS_HOOK,
        status('delivered'),
        twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${api.url}${STATUS_HOOK}`, status('delivered')),
      ),
      403,
      'Forbidden',
    )
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('sent')

    const delivered = await webhook(STATUS_HOOK, status('delivered'))
    expect(delivered.status).toBe(204)
    expect(await interaction(needId, interactionId)).toMatchObject({ deliveryStatus: 'delivered', providerMessageId: sid })
    // Twilio's callbacks may arrive out of order: a late "sent" does not move it back.
    expect((await webhook(STATUS_HOOK, status('sent'))).status).toBe(204)
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('delivered')
  })

  test('an undelivered callback marks the interaction failed; one for an unknown sid is accepted and ignored', async () => {
    const phone = newPhone()
    const needId = await needFor(phone)
    const interactionId = await queued(needId, 'Lost on the way')
    await drain()
    const sid = (await interaction(needId, interactionId))!.providerMessageId!
    expect((await webhook(STATUS_HOOK, { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' })).status).toBe(204)
    expect((await interaction(needId, interactionId))?.deliveryStatus).toBe('failed')
    expect((await webhook(STATUS_HOOK, { MessageSid: 'SMunknown', MessageStatus: 'delivered' })).status).toBe(204)
  })
})
