import { beforeEach, describe, expect, test } from 'bun:test'
import { ForbiddenError, InvalidError, NotFoundError, TooManyRequestsError } from '../../../src/domain/errors'
import { failureOf } from '../failure-of'
import { createSmsWorld, PUBLIC_BASE_URL, VALID_SIGNATURE, type SmsWorld } from '../sms-world'

// docs/api/organization.md "Messages", on the in-memory adapters: the texts on no need and what a member does with them.
const ORG_NUMBER = '+15557770000'
const STRANGER = '+15550009999'

let world: SmsWorld
let sids = 0
beforeEach(async () => {
  world = await createSmsWorld()
  await world.configureOrganization({ phoneNumber: ORG_NUMBER })
})

/** A text that came in through the webhook, a second after the last; answers its id. */
async function received(body: string, from = STRANGER): Promise<string> {
  world.clock.advance(1000)
  const sid = `SMin${String(++sids).padStart(30, '0')}`
  await world.useCases.sms.receive.execute({
    url: `${PUBLIC_BASE_URL}/api/webhooks/twilio/sms`,
    params: { From: from, To: ORG_NUMBER, Body: body, MessageSid: sid },
    signature: VALID_SIGNATURE,
  })
  return (await world.repositories.interactions.findByProviderMessageId(sid))!.id
}

const listed = async (actor = world.admin) => world.useCases.sms.listUnattached.execute(actor, { page: 1, limit: 100 })

describe('listing texts on no need', () => {
  test('newest first, with the number for those who may read phone numbers only', async () => {
    const first = await received('Hello?')
    const second = await received('Anyone?')
    expect(await listed()).toEqual({
      items: [
        { id: second, body: 'Anyone?', receivedAt: world.clock.now(), from: STRANGER },
        { id: first, body: 'Hello?', receivedAt: new Date(world.clock.now().getTime() - 1000), from: STRANGER },
      ],
      total: 2,
    })
    const texter = await world.member('staff', { profiles: ['sms_communicator'] })
    expect((await listed(texter)).items.map((m) => Object.keys(m).sort())).toEqual([
      ['body', 'id', 'receivedAt'],
      ['body', 'id', 'receivedAt'],
    ])
    await failureOf(listed(await world.member('staff')), ForbiddenError)
  })
})

describe('putting texts on a need', () => {
  test('attach moves every text of the number, names the need’s person, and audits each text', async () => {
    const ana = await world.constituent({ firstName: 'Ana', phone: '+15550001111' })
    const need = await world.needFor(ana.id)
    const first = await received('Hello?')
    const second = await received('It is Ana, new phone')
    const other = await received('Someone else', '+15550008888')

    await world.useCases.sms.attach.execute(world.admin, second, need.id)
    expect((await world.interactionsOfNeed(need.id)).map((i) => [i.id, i.constituentId, i.partnerId])).toEqual([
      [first, ana.id, need.partnerId],
      [second, ana.id, need.partnerId],
    ])
    expect((await listed()).items.map((m) => m.id)).toEqual([other])
    const { items } = await world.repositories.auditEvents.list(world.organizationId, { action: 'update' }, { page: 1, limit: 10 })
    expect(
      items
        .filter((e) => e.recordType === 'interaction')
        .map((e) => e.recordId)
        .sort(),
    ).toEqual([first, second].sort())
    // Attached, it is no message on no need any more.
    await failureOf(world.useCases.sms.attach.execute(world.admin, first, need.id), NotFoundError)
  })

  test('a need started from a text takes the person on file with the number, or one made from it', async () => {
    const known = await world.constituent({ firstName: 'Bo', phone: '+15550002222' })
    const fromKnown = await received('Hi, Bo here', known.phone)
    const need = await world.useCases.sms.startNeed.execute(world.admin, fromKnown, { partnerId: world.defaultPartner.id })
    expect(need).toMatchObject({ constituentId: known.id, customFields: {}, createdBy: world.admin.memberId })
    expect((await world.interactionsOfNeed(need.id)).map((i) => i.id)).toEqual([fromKnown])

    const fromStranger = await received('Help please')
    const started = await world.useCases.sms.startNeed.execute(world.admin, fromStranger, {
      partnerId: world.defaultPartner.id,
      description: 'Rent',
    })
    const person = await world.repositories.constituents.findById(world.organizationId, started.constituentId!)
    expect(person?.phone).toBe(STRANGER)
    expect(started.customFields).toEqual({ description: 'Rent', phone: STRANGER })
    await failureOf(
      world.useCases.sms.startNeed.execute(world.admin, await received('again'), { partnerId: world.defaultPartner.id, description: '' }),
      InvalidError,
    )
  })

  test('a reply queues a text to the number on no need, counted with the texts to that number', async () => {
    const message = await received('What time?')
    const { interactionId } = await world.useCases.sms.reply.execute(world.admin, message, 'At 3')
    expect(await world.interaction(interactionId)).toMatchObject({
      direction: 'outbound',
      recipient: STRANGER,
      sentByMemberId: world.admin.memberId,
      deliveryStatus: 'queued',
    })
    expect((await world.interaction(interactionId))?.needId).toBeUndefined()
    const tally = await world.repositories.interactions.tallyRepliesTo(world.organizationId, STRANGER, new Date(0))
    expect(tally.count).toBe(1)
  })

  test('replies count toward the number’s hourly limit, and an opted-out number is not texted', async () => {
    world = await createSmsWorld({ env: { SMS_PER_RECIPIENT_PER_HOUR: '1' } })
    await world.configureOrganization({ phoneNumber: ORG_NUMBER })
    const message = await received('What time?')
    await world.useCases.sms.reply.execute(world.admin, message, 'At 3')
    await failureOf(world.useCases.sms.reply.execute(world.admin, message, 'Or 4'), TooManyRequestsError)

    const stop = await received('STOP', '+15550007777')
    await failureOf(world.useCases.sms.reply.execute(world.admin, stop, 'Sorry to see you go'), InvalidError)
  })
})

describe('attention', () => {
  test('a text to a resolved need marks it; a text sent on it, or a change, clears the mark', async () => {
    const ana = await world.constituent({ firstName: 'Ana', phone: '+15550001111' })
    const need = await world.needFor(ana.id)
    // Read as stored: a member opening the need would take the mark off (docs/api/needs.md "Attention").
    const isMarked = async () => (await world.repositories.needs.findById(world.organizationId, need.id))?.needsAttention === true
    await world.setStatus(need, 'RESOLVED')

    await received('Me again', ana.phone)
    expect(await isMarked()).toBe(true)
    const page = { page: 1, limit: 10 }
    expect((await world.useCases.needs.list.execute(world.admin, { needsAttention: true }, page)).items.map((n) => n.id)).toEqual([need.id])
    await world.send(need.id, 'We will call you')
    expect(await isMarked()).toBe(false)

    await received('Thanks', ana.phone)
    expect(await isMarked()).toBe(true)
    await world.setStatus(need, 'IN_PROGRESS')
    expect(await isMarked()).toBe(false)
  })
})
