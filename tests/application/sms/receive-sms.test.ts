import { beforeEach, describe, expect, test } from 'bun:test'
import type { ProviderWebhookCall } from '../../../src/application/sms/provider-webhook'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import type { Interaction } from '../../../src/domain/needs/interaction'
import type { World } from '../../support/world'
import { failureOf } from '../failure-of'
import { createSmsWorld, PUBLIC_BASE_URL, VALID_SIGNATURE, type SmsWorld } from '../sms-world'

const ORG_NUMBER = '+15557770000'
const PHONE = '+15550001111'
const WEBHOOK_URL = `${PUBLIC_BASE_URL}/api/webhooks/twilio/sms`

let world: SmsWorld
let ana: Constituent
let sids = 0
beforeEach(async () => {
  world = await createSmsWorld()
  await world.configureOrganization({ phoneNumber: ORG_NUMBER })
  ana = await world.constituent({ firstName: 'Ana', phone: PHONE })
})

/** An inbound text as Twilio posts it, validly signed. */
function inbound(body: string, overrides: Partial<Record<'From' | 'To' | 'MessageSid', string>> = {}): ProviderWebhookCall {
  sids++
  return {
    url: WEBHOOK_URL,
    params: { From: PHONE, To: ORG_NUMBER, Body: body, MessageSid: `SMin${String(sids).padStart(30, '0')}`, NumMedia: '0', ...overrides },
    signature: VALID_SIGNATURE,
  }
}

/** Receives a text a second after the last thing that happened, and answers the interaction kept for it. */
async function receive(request: ProviderWebhookCall): Promise<Interaction | undefined> {
  world.clock.advance(1000)
  await world.useCases.sms.receive.execute(request)
  return world.repositories.interactions.findByProviderMessageId(request.params.MessageSid!)
}

/** Another organization in the same store, with its own SMS number, set as an operator would. */
async function anotherOrganization(phoneNumber: string): Promise<World> {
  const other = await world.otherOrganization()
  const { slug } = (await world.repositories.organizations.findById(other.organizationId))!
  await world.useCases.operations.setOrganizationPhoneNumber.execute(slug, phoneNumber)
  return other
}

const optedOut = async (organizationId = world.organizationId) =>
  (await world.repositories.smsOptOuts.optedOutAt(organizationId, PHONE)) !== undefined

/** Whether SendSms (as the admin) would text the need now. */
async function canText(needId: string): Promise<boolean> {
  try {
    await world.send(needId)
    return true
  } catch (error) {
    if (error instanceof InvalidError && /opted out/.test(error.message)) return false
    throw error
  }
}

describe('ReceiveSms', () => {
  describe('the signature', () => {
    test('is checked against the public URL and every posted parameter', async () => {
      const request = inbound('Hello')
      await receive(request)
      expect(world.verifier.checked).toEqual([{ url: WEBHOOK_URL, params: request.params, signature: VALID_SIGNATURE }])
    })

    test('a wrong or missing one is Forbidden and nothing is stored, not even an opt-out', async () => {
      const need = await world.needFor(ana.id)
      for (const signature of ['forged', undefined]) {
        const request = { ...inbound('STOP'), signature }
        await failureOf(receive(request), ForbiddenError)
        expect(await world.repositories.interactions.findByProviderMessageId(request.params.MessageSid!)).toBeUndefined()
      }
      expect(await world.interactionsOfNeed(need.id)).toEqual([])
      expect(await optedOut()).toBe(false)
    })
  })

  test('a text to a number no organization has stores nothing, and is logged', async () => {
    const need = await world.needFor(ana.id)
    const request = inbound('STOP', { To: '+15559999999' })
    expect(await receive(request)).toBeUndefined()
    expect(await world.interactionsOfNeed(need.id)).toEqual([])
    expect(await optedOut()).toBe(false)
    expect(world.logs.some((e) => e.level === 'warn' && e.fields.to === '+15559999999')).toBe(true)
  })

  test('a request without From or To stores nothing', async () => {
    const need = await world.needFor(ana.id)
    await world.useCases.sms.receive.execute({ url: WEBHOOK_URL, params: { Body: 'STOP', To: ORG_NUMBER }, signature: VALID_SIGNATURE })
    await world.useCases.sms.receive.execute({ url: WEBHOOK_URL, params: { Body: 'STOP', From: PHONE }, signature: VALID_SIGNATURE })
    expect(await world.interactionsOfNeed(need.id)).toEqual([])
    expect(await optedOut()).toBe(false)
  })

  describe('where the message is kept', () => {
    test("as an inbound sms interaction on the constituent's newest open need, with the sender's number and the provider's id", async () => {
      await world.needFor(ana.id)
      const newest = await world.needFor(ana.id)
      const request = inbound('When can I come by?')
      expect(await receive(request)).toEqual({
        id: expect.any(String),
        organizationId: world.organizationId,
        partnerId: world.defaultPartner.id,
        needId: newest.id,
        constituentId: ana.id,
        channel: 'sms',
        direction: 'inbound',
        senderIdentifier: PHONE,
        content: 'When can I come by?',
        providerMessageId: request.params.MessageSid!,
        createdAt: world.clock.now(),
      })
      expect((await world.interactionsOfNeed(newest.id)).map((i) => i.content)).toEqual(['When can I come by?'])
    })

    test('skips resolved needs, however new', async () => {
      const open = await world.needFor(ana.id, { status: 'PENDING_CLIENT' })
      const resolved = await world.needFor(ana.id)
      await world.setStatus(resolved, 'RESOLVED')
      expect((await receive(inbound('Thanks!')))?.needId).toBe(open.id)
      expect(await world.interactionsOfNeed(resolved.id)).toEqual([])
    })

    test("the need's partner comes along", async () => {
      const pantry = await world.partner()
      const need = await world.needFor(ana.id, { partnerId: pantry.id })
      expect(await receive(inbound('Hi'))).toMatchObject({ needId: need.id, partnerId: pantry.id })
    })

    test('any constituent with that number counts: the newest open need among them wins', async () => {
      await world.needFor(ana.id)
      const sibling = await world.constituent({ firstName: 'Luis', phone: PHONE })
      const theirs = await world.needFor(sibling.id)
      expect(await receive(inbound('Hi'))).toMatchObject({ needId: theirs.id, constituentId: sibling.id })
    })

    test('with only resolved needs, it goes on the newest, marked for attention, its status unchanged', async () => {
      const older = await world.needFor(ana.id)
      const newest = await world.needFor(ana.id)
      for (const need of [older, newest]) await world.setStatus(need, 'RESOLVED')
      const kept = await receive(inbound('Hello again'))
      expect(kept).toMatchObject({ channel: 'sms', direction: 'inbound', constituentId: ana.id, needId: newest.id, content: 'Hello again' })
      expect(await world.repositories.needs.findById(world.organizationId, newest.id)).toMatchObject({
        status: 'RESOLVED',
        needsAttention: true,
      })
      expect((await world.repositories.needs.findById(world.organizationId, older.id))?.needsAttention).toBeUndefined()
    })

    test('an open need takes the text without a mark, and STOP marks no resolved need', async () => {
      const open = await world.needFor(ana.id)
      expect(await receive(inbound('Thanks'))).toMatchObject({ needId: open.id })
      expect((await world.repositories.needs.findById(world.organizationId, open.id))?.needsAttention).toBeUndefined()
      await world.setStatus(open, 'RESOLVED')
      expect(await receive(inbound('STOP'))).toMatchObject({ needId: open.id })
      expect((await world.repositories.needs.findById(world.organizationId, open.id))?.needsAttention).toBeUndefined()
    })

    test('from a number no constituent has, it is kept unattached and names no one', async () => {
      const kept = await receive(inbound('Who is this?', { From: '+15554443333' }))
      expect(kept).toMatchObject({ organizationId: world.organizationId, senderIdentifier: '+15554443333', content: 'Who is this?' })
      expect(kept?.needId).toBeUndefined()
      expect(kept?.constituentId).toBeUndefined()
    })

    test("never lands on another organization's need, even from a number it knows", async () => {
      const other = await anotherOrganization('+15558880000')
      const theirs = await other.useCases.constituents.create.execute(other.admin, { firstName: 'Ana', phone: PHONE })
      const theirNeed = await other.useCases.needs.create.execute(other.admin, {
        partnerId: other.defaultPartner.id,
        constituentId: theirs.id,
      })
      const ours = await world.needFor(ana.id)
      expect(await receive(inbound('Hi'))).toMatchObject({ organizationId: world.organizationId, needId: ours.id })
      expect((await world.repositories.interactions.listByNeed(other.organizationId, theirNeed.id, { page: 1, limit: 100 })).items).toEqual(
        [],
      )
    })
  })

  describe('opting out and back in (docs/api/organization.md "SMS")', () => {
    for (const body of [
      'STOP',
      'stop',
      ' Stop ',
      'STOPALL',
      'UNSUBSCRIBE',
      'cancel',
      'End',
      'QUIT',
      'revoke',
      'OptOut',
      'ALTO',
      'parar',
      'Baja',
    ]) {
      test(`${JSON.stringify(body)} opts the number out of the organization's texts, and is kept as a message too`, async () => {
        const need = await world.needFor(ana.id)
        expect(await receive(inbound(body))).toMatchObject({ needId: need.id, content: body })
        expect(await optedOut()).toBe(true)
        expect(await canText(need.id)).toBe(false)
      })
    }

    for (const body of ['START', 'yes', ' Unstop ', 'COMENZAR', 'si', 'Sí', 'SI']) {
      test(`${JSON.stringify(body)} opts it back in`, async () => {
        const need = await world.needFor(ana.id)
        await receive(inbound('STOP'))
        expect(await canText(need.id)).toBe(false)
        await receive(inbound(body))
        expect(await optedOut()).toBe(false)
        expect(await canText(need.id)).toBe(true)
        expect((await world.interactionsOfNeed(need.id)).filter((i) => i.direction === 'inbound').map((i) => i.content)).toEqual([
          'STOP',
          body,
        ])
      })
    }

    test('a keyword inside a sentence is only a message', async () => {
      const need = await world.needFor(ana.id)
      await receive(inbound('please stop by tomorrow'))
      expect(await optedOut()).toBe(false)
      expect(await canText(need.id)).toBe(true)
    })

    test('an opt-out holds for the organization whose number was texted only', async () => {
      const other = await anotherOrganization('+15558880000')
      await receive(inbound('STOP', { To: '+15558880000' }))
      expect(await optedOut(other.organizationId)).toBe(true)
      expect(await optedOut(world.organizationId)).toBe(false)
      expect(await canText((await world.needFor(ana.id)).id)).toBe(true)
    })

    test('opting out twice, or opting in without having opted out, is harmless', async () => {
      await receive(inbound('STOP'))
      await receive(inbound('STOP'))
      expect(await optedOut()).toBe(true)
      await receive(inbound('START'))
      await receive(inbound('START'))
      expect(await optedOut()).toBe(false)
    })
  })
})

describe('who reads an inbound text\'s number (docs/constituents.md "Redaction")', () => {
  /** The need's interactions as `actor` lists them: the inbound text, a note and a text sent, in that order. */
  async function listedBy(actor: Actor) {
    const need = await world.needFor(ana.id)
    await receive(inbound('Is my box ready?'))
    await world.useCases.needs.addNote.execute(world.admin, need.id, 'called back')
    await world.send(need.id, 'It is')
    return (await world.useCases.needs.listInteractions.execute(actor, need.id, { page: 1, limit: 10 })).items
  }

  const partnerId = () => world.defaultPartner.id
  test.each([
    ['org_admin', () => world.admin],
    ['partner_admin', () => world.member('partner_admin', { partnerId: partnerId() })],
    ['staff with pii_reader', () => world.member('staff', { profiles: ['pii_reader'] })],
    ['staff with email_phone_communicator', () => world.member('staff', { profiles: ['email_phone_communicator'] })],
    [
      'a volunteer with email_phone_communicator',
      () => world.member('volunteer', { partnerId: partnerId(), profiles: ['email_phone_communicator'] }),
    ],
  ])("%s, who may read the person's phone, sees it as the sender", async (_role, actor) => {
    const [text, note, sent] = await listedBy(await actor())
    expect(text).toMatchObject({ channel: 'sms', direction: 'inbound', senderIdentifier: PHONE, content: 'Is my box ready?' })
    expect(note).toMatchObject({ channel: 'note', senderIdentifier: expect.any(String) })
    expect(sent).toMatchObject({ channel: 'sms', direction: 'outbound', senderIdentifier: ORG_NUMBER })
  })

  test.each([
    ['staff', () => world.member('staff')],
    ['partner_agent', () => world.member('partner_agent', { partnerId: partnerId() })],
    ['volunteer', () => world.member('volunteer', { partnerId: partnerId() })],
    [
      'a partner_agent with intake_staff',
      () => world.member('partner_agent', { partnerId: partnerId(), profiles: ['intake_staff', 'needs_processor'] }),
    ],
  ])("%s, who may not read the person's phone, gets the text without its sender", async (_role, actor) => {
    const [text, note, sent] = await listedBy(await actor())
    expect(text).toMatchObject({ channel: 'sms', direction: 'inbound', content: 'Is my box ready?' })
    expect(text).not.toHaveProperty('senderIdentifier')
    expect(JSON.stringify(text)).not.toContain(PHONE.slice(2))
    // What is not the person's number stays: a note's author, the organization's own number.
    expect(note).toMatchObject({ channel: 'note', senderIdentifier: expect.any(String) })
    expect(sent).toMatchObject({ channel: 'sms', direction: 'outbound', senderIdentifier: ORG_NUMBER })
  })
})

describe('ReceiveSms, a webhook Twilio sends again', () => {
  test('the same MessageSid is recorded once, however often it arrives', async () => {
    const need = await world.needFor(ana.id)
    const request = inbound('I need help with rent')
    await receive(request)
    await receive(request)
    const onNeed = (await world.repositories.interactions.listByNeed(world.organizationId, need.id, { page: 1, limit: 100 })).items
    expect(onNeed.filter((i) => i.providerMessageId === request.params.MessageSid)).toHaveLength(1)
  })
})
