import { AuditTrail } from '../../../src/application/audit/audit-trail'
import { beforeEach, describe, expect, test } from 'bun:test'
import { IdempotentCreates } from '../../../src/application/idempotency/idempotent-creates'
import { Outbox } from '../../../src/application/messaging/outbox'
import type { Repositories } from '../../../src/application/ports/repositories'
import { ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import type { SmsMessage } from '../../../src/domain/messaging/outbox'
import { SendSms } from '../../../src/application/sms/send-sms'
import { TextSending } from '../../../src/application/sms/text-sending'
import type { Need } from '../../../src/domain/needs/need'
import { PORTS } from '../../../src/main/container'
import { failureOf } from '../failure-of'
import { createSmsWorld, type SmsWorld } from '../sms-world'

const ORG_NUMBER = '+15557770000'
const PHONE = '+15550001111'

let world: SmsWorld
let ana: Constituent
let need: Need
beforeEach(async () => {
  world = await createSmsWorld()
  ana = await world.constituent({ firstName: 'Ana', phone: PHONE })
  need = await world.needFor(ana.id)
})

/** What the outbox holds for the dispatcher: every message a claim hands out now. */
const queued = () => world.dispatcher.claim()

/** SendSms refused: the same InvalidError checks, and nothing was recorded or queued. */
async function expectRefused(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await failureOf(promise, InvalidError)
  expect(error.message).toMatch(message)
  expect(error.errors).toEqual([{ path: '/', message: error.message }])
  await expectNothingRecorded()
}

async function expectNothingRecorded(needId = need.id): Promise<void> {
  expect(await world.interactionsOfNeed(needId)).toEqual([])
  expect(await queued()).toEqual([])
}

describe('SendSms', () => {
  test("records a queued outbound sms interaction from the organization's number, on the need and its partner", async () => {
    await world.configureOrganization({ phoneNumber: ORG_NUMBER })
    world.clock.advance(60_000)
    const { interactionId } = await world.send(need.id, 'Your box is ready for pickup')
    expect(await world.interactionsOfNeed(need.id)).toEqual([
      {
        id: interactionId,
        organizationId: world.organizationId,
        partnerId: world.defaultPartner.id,
        needId: need.id,
        constituentId: ana.id,
        channel: 'sms',
        direction: 'outbound',
        senderIdentifier: ORG_NUMBER,
        content: 'Your box is ready for pickup',
        deliveryStatus: 'queued',
        sentByMemberId: world.admin.memberId,
        createdAt: world.clock.now(),
      },
    ])
  })

  test('puts exactly one text in the outbox, to the constituent, naming the interaction; nothing leaves yet', async () => {
    await world.configureOrganization({ phoneNumber: ORG_NUMBER })
    const { interactionId } = await world.send(need.id, 'See you Tuesday')
    expect(world.sms.attempts).toEqual([])
    const messages = await queued()
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({
      organizationId: world.organizationId,
      attempts: 0,
      payload: { channel: 'sms', sms: { from: ORG_NUMBER, to: PHONE, body: 'See you Tuesday', interactionId } satisfies SmsMessage },
    })
  })

  test("signs the text as 'system' when the organization has no number and the provider does not need one", async () => {
    const { interactionId } = await world.send(need.id)
    expect((await world.interaction(interactionId))?.senderIdentifier).toBe('system')
    expect((await queued())[0]?.payload).toMatchObject({ channel: 'sms', sms: { from: 'system', to: PHONE } })
  })

  test('each send is its own interaction and its own outbox message', async () => {
    const first = await world.send(need.id, 'one')
    world.clock.advance(1000)
    const second = await world.send(need.id, 'two')
    expect(first.interactionId).not.toBe(second.interactionId)
    expect((await world.interactionsOfNeed(need.id)).map((i) => i.content)).toEqual(['one', 'two'])
    expect((await queued()).map((m) => m.payload.channel === 'sms' && m.payload.sms.interactionId).sort()).toEqual(
      [first.interactionId, second.interactionId].sort(),
    )
  })

  test('takes the reference number in place of the id', async () => {
    const { interactionId } = await world.send(need.referenceNumber.toLowerCase())
    expect((await world.interaction(interactionId))?.needId).toBe(need.id)
  })

  describe('who may send (docs/api/access.md "Permissions")', () => {
    test('staff without the sms_communicator profile are Forbidden, and nothing is recorded', async () => {
      const staff = await world.member('staff')
      await failureOf(world.send(need.id, 'hi', staff), ForbiddenError)
      await expectNothingRecorded()
    })

    test('staff with the sms_communicator profile may', async () => {
      const staff = await world.member('staff', { profiles: ['sms_communicator'] })
      const { interactionId } = await world.send(need.id, 'hi', staff)
      expect((await world.interaction(interactionId))?.deliveryStatus).toBe('queued')
    })

    test("partner roles need the profile too, and then reach their own partner's needs only", async () => {
      const agent = await world.member('partner_agent', { partnerId: world.defaultPartner.id })
      await failureOf(world.send(need.id, 'hi', agent), ForbiddenError)
      const texter = await world.member('partner_admin', { partnerId: world.defaultPartner.id, profiles: ['sms_communicator'] })
      await world.send(need.id, 'hi', texter)
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
      await failureOf(world.send(need.id, 'hi', volunteer), ForbiddenError)
      expect(await world.interactionsOfNeed(need.id)).toHaveLength(1)
    })
  })

  describe('which need', () => {
    test("another organization's need is Need not found, even to its org_admin", async () => {
      const other = await world.otherOrganization()
      const error = await failureOf(world.send(need.id, 'hi', other.admin), NotFoundError)
      expect(error.resource).toBe('Need')
      await expectNothingRecorded()
    })

    test("another partner's need is Need not found to a partner role that may text", async () => {
      const pantry = await world.partner()
      const texter = await world.member('partner_agent', { partnerId: pantry.id, profiles: ['sms_communicator'] })
      expect((await failureOf(world.send(need.id, 'hi', texter), NotFoundError)).resource).toBe('Need')
      await expectNothingRecorded()
    })

    test('an unknown id or reference number is Need not found', async () => {
      expect((await failureOf(world.send(crypto.randomUUID()), NotFoundError)).resource).toBe('Need')
      expect((await failureOf(world.send('REQ-999999'), NotFoundError)).resource).toBe('Need')
    })
  })

  describe('whom to text', () => {
    test('a need without a constituent is refused', async () => {
      const anonymous = await world.needFor(undefined)
      await expectRefused(world.send(anonymous.id), /no constituent/)
      await expectNothingRecorded(anonymous.id)
    })

    test('a constituent without a phone number is refused', async () => {
      const noPhone = await world.constituent({ firstName: 'Bo', email: 'bo@example.org' })
      const theirs = await world.needFor(noPhone.id)
      await expectRefused(world.send(theirs.id), /no phone number/)
      await expectNothingRecorded(theirs.id)
    })

    test('a number that opted out of this organization is refused, saying how to opt back in', async () => {
      await world.container
        .get(PORTS.unitOfWork)
        .run((r: Repositories) => r.smsOptOuts.optOut(world.organizationId, PHONE, world.clock.now()))
      await expectRefused(world.send(need.id), /opted out.*START/)
    })

    test('an opt-out from another organization does not count here', async () => {
      const other = await world.otherOrganization()
      await world.container
        .get(PORTS.unitOfWork)
        .run((r: Repositories) => r.smsOptOuts.optOut(other.organizationId, PHONE, world.clock.now()))
      const { interactionId } = await world.send(need.id)
      expect((await world.interaction(interactionId))?.deliveryStatus).toBe('queued')
    })
  })

  describe('with a provider that sends from the organization’s own number (Twilio)', () => {
    test('an organization without an SMS number is refused, naming what to do', async () => {
      world = await createSmsWorld({ senderNumberRequired: true })
      const bo = await world.constituent({ firstName: 'Bo', phone: PHONE })
      const theirs = await world.needFor(bo.id)
      const error = await failureOf(world.send(theirs.id), InvalidError)
      expect(error.message).toMatch(/no SMS number/)
      await expectNothingRecorded(theirs.id)
    })

    test('once the number is set, the text goes out from it', async () => {
      world = await createSmsWorld({ senderNumberRequired: true })
      await world.configureOrganization({ phoneNumber: ORG_NUMBER })
      const bo = await world.constituent({ firstName: 'Bo', phone: PHONE })
      const { interactionId } = await world.send((await world.needFor(bo.id)).id)
      expect((await world.interaction(interactionId))?.senderIdentifier).toBe(ORG_NUMBER)
      expect((await queued())[0]?.payload).toMatchObject({ sms: { from: ORG_NUMBER } })
    })
  })

  test('the interaction and the outbox message are one transaction: when queuing fails, neither is kept', async () => {
    class OutboxThatFailsAfterWriting extends Outbox {
      override async sms(r: Repositories, organizationId: string, sms: SmsMessage): Promise<string> {
        await super.sms(r, organizationId, sms)
        throw new Error('the database went away')
      }
    }
    const c = world.container
    const outbox = new OutboxThatFailsAfterWriting(world.clock, c.get(PORTS.ids))
    const sending = new TextSending(outbox, world.clock, false, c.get(AuditTrail), c.get(PORTS.sendLimits))
    const sendSms = new SendSms(c.get(PORTS.repositories), c.get(IdempotentCreates), sending)
    await expect(sendSms.execute(world.admin, need.id, 'Your box is ready')).rejects.toThrow('the database went away')
    await expectNothingRecorded()
  })
})

describe('SendSms, the message itself', () => {
  test('a body of only spaces is Invalid at /body, and nothing is queued', async () => {
    const error = await failureOf(world.send(need.id, '   '), InvalidError)
    expect(error.errors.map((e) => e.path)).toEqual(['/body'])
    expect(await queued()).toEqual([])
  })
})
