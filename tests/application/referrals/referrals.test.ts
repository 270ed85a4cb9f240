import { beforeEach, describe, expect, test } from 'bun:test'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { SendReferralInput } from '../../../src/application/referrals/send-referral'
import type { Actor } from '../../../src/domain/auth/actor'
import type { InvalidError } from '../../../src/domain/errors'
import { createContainer, PORTS } from '../../../src/main/container'
import { FixedClock } from '../../support/fixed-clock'
import { cheapPasswords, createWorld, testConfig, type World } from '../../support/world'
import { LoopbackTransport } from '../../support/federation-loopback'
import { failureOf } from '../webhooks/webhooks-support'

// docs/referrals.md "Referrals" through the use cases on the in-memory adapters: two organizations, paired, on one instance.

let receiving: World
let sending: World
let transport: LoopbackTransport
let clock: FixedClock
let partnerAtSender: string
let serviceId: string
let needId: string

const HOUR = 60 * 60 * 1000

beforeEach(async () => {
  clock = new FixedClock()
  const config = testConfig()
  const container = createContainer(config, { clock, passwords: cheapPasswords() })
  transport = new LoopbackTransport(() => receiving.useCases.federation)
  container.rebind(PORTS.federationTransport).toConstantValue(transport)
  receiving = await createWorld(config, container, clock)
  sending = await receiving.otherOrganization()
  const { code } = await receiving.useCases.federation.createInvitation.execute(receiving.admin)
  partnerAtSender = (await sending.useCases.federation.pair.execute(sending.admin, { code })).id
  const pantry = await receiving.partner({ name: 'Pantry' })
  serviceId = (await receiving.useCases.services.create.execute(receiving.admin, { partnerId: pantry.id, name: 'Food pantry' })).id
  const customFields = { firstName: 'Ana', lastName: 'Ruiz', phone: '+15035550101' }
  needId = (await sending.useCases.needs.create.execute(sending.admin, { partnerId: sending.defaultPartner.id, customFields })).id
})

function consent(overrides: Record<string, unknown> = {}) {
  return {
    obtainedAt: clock.now(),
    method: 'verbal' as const,
    expiresAt: new Date(clock.now().getTime() + 30 * 24 * HOUR),
    fields: ['firstName', 'phone'],
    ...overrides,
  }
}

const send = (input: Partial<SendReferralInput> = {}) =>
  sending.useCases.referrals.send.execute(sending.admin, needId, {
    referralPartnerId: partnerAtSender,
    serviceId,
    consent: consent(),
    note: 'Needs groceries',
    ...input,
  } as SendReferralInput)
const dispatch = () => receiving.container.get(DispatchOutbox).runOnce()
const atReceiver = (id: string) => receiving.repositories.referrals.findById(receiving.organizationId, id)
const atSender = (id: string) => sending.repositories.referrals.findById(sending.organizationId, id)
/** The organization's referral events, as its webhook endpoints and live streams get them. */
const eventsOf = async (world: World) =>
  (await world.repositories.liveEvents.replay(world.organizationId, 0, 100))
    .filter((e) => e.type.startsWith('referral.'))
    .map(({ type, data }) => ({ type, data }))
/** The referral's audit events on one side, newest first: their action and member. */
const auditOf = async (world: World, id: string) =>
  (
    await world.repositories.auditEvents.list(world.organizationId, { recordType: 'referral', recordId: id }, { page: 1, limit: 10 })
  ).items.map((e) => [e.action, e.memberId])
const pathsOf = async (promise: Promise<unknown>) => ((await failureOf(promise)) as InvalidError).errors.map((e) => e.path)

describe('sending a referral', () => {
  test('without consent, with expired consent or a field that is no contact field, it is refused', async () => {
    expect(await pathsOf(send({ consent: undefined }))).toEqual(['/consent'])
    expect(await pathsOf(send({ consent: consent({ expiresAt: clock.now() }) }))).toEqual(['/consent/expiresAt'])
    expect(await pathsOf(send({ consent: consent({ fields: ['firstName', 'ssn'] }) }))).toEqual(['/consent/fields'])
  })

  test('a need without a person is refused', async () => {
    needId = (await sending.useCases.needs.create.execute(sending.admin, { partnerId: sending.defaultPartner.id })).id
    expect(await failureOf(send())).toMatchObject({ kind: 'invalid', message: 'The need names no person to refer' })
  })

  test("the receiver's need holds only the consented values, routed to the service's partner; the sender sees it received", async () => {
    const sent = await send()
    expect(sent).toMatchObject({ status: 'requested', referralPartner: { id: partnerAtSender }, needId })
    await dispatch()
    const received = await atReceiver(sent.id)
    expect(received).toMatchObject({
      direction: 'in',
      status: 'received',
      serviceId,
      takenValues: { firstName: 'Ana', phone: '+15035550101' },
    })
    const need = await receiving.repositories.needs.findById(receiving.organizationId, received!.needId)
    expect(need?.customFields).toEqual({ firstName: 'Ana', phone: '+15035550101', description: 'Needs groceries' })
    const service = await receiving.repositories.services.findById(receiving.organizationId, serviceId)
    expect(need?.partnerId).toBe(service!.partnerId)
    const person = await receiving.repositories.constituents.findById(receiving.organizationId, need!.constituentId!)
    expect(person).toMatchObject({ firstName: 'Ana', phone: '+15035550101' })
    expect(person?.lastName).toBeUndefined()
    await dispatch()
    expect((await atSender(sent.id))?.status).toBe('received')
    expect(await eventsOf(receiving)).toEqual([{ type: 'referral.received', data: { referralId: sent.id, needId: need!.id } }])
    expect(await eventsOf(sending)).toEqual([
      { type: 'referral.status_changed', data: { referralId: sent.id, needId, status: 'received' } },
    ])
  })

  test('a message posted again changes nothing: no second referral', async () => {
    const sent = await send()
    await dispatch()
    const [first] = transport.posts
    await transport.post(first!.url, first!.headers, first!.body)
    const all = await receiving.repositories.referrals.list(receiving.organizationId, {}, { page: 1, limit: 10 })
    expect(all.items.map((f) => f.id)).toEqual([sent.id])
    expect((await receiving.repositories.needs.list(receiving.organizationId, {}, { page: 1, limit: 10 })).total).toBe(1)
  })
})

describe('moves', () => {
  async function received() {
    const sent = await send()
    await dispatch()
    await dispatch()
    return sent.id
  }

  test("accept then complete reaches the sender with its outcome and the receiver's name; a late accepted changes nothing", async () => {
    const id = await received()
    const staff: Actor = await receiving.member('staff')
    await receiving.useCases.referrals.move.execute(staff, id, 'accept')
    await receiving.useCases.referrals.move.execute(staff, id, 'complete', { outcome: 'got_help' })
    await dispatch()
    const seen = await sending.useCases.referrals.get.execute(sending.admin, id)
    expect(seen).toMatchObject({ direction: 'out', status: 'completed', outcome: 'got_help', consent: { fields: ['firstName', 'phone'] } })
    const name = (await receiving.repositories.organizations.findById(receiving.organizationId))!.name
    expect(seen.history.map((m) => [m.status, m.by.organization])).toEqual([
      ['requested', (await sending.repositories.organizations.findById(sending.organizationId))!.name],
      ['received', name],
      ['accepted', name],
      ['completed', name],
    ])
    // Audited on both sides: each move by its member here, and with no member as the other side's.
    expect(await auditOf(receiving, id)).toEqual([
      ['update', staff.memberId],
      ['update', staff.memberId],
      ['create', undefined],
    ])
    expect(await auditOf(sending, id)).toEqual([
      ['update', undefined],
      ['update', undefined],
      ['update', undefined],
      ['create', sending.admin.memberId],
    ])
    const accepted = transport.posts.find((p) => p.body.includes('"accepted"'))!
    await transport.post(accepted.url, { ...accepted.headers, 'webhook-id': 'another-id' }, accepted.body)
    expect((await atSender(id))?.status).toBe('completed')
  })

  test('only the receiver accepts, only forward; only the sender cancels, before completed', async () => {
    const id = await received()
    expect(await failureOf(sending.useCases.referrals.move.execute(sending.admin, id, 'accept'))).toMatchObject({ kind: 'conflict' })
    expect(
      await failureOf(receiving.useCases.referrals.move.execute(receiving.admin, id, 'complete', { outcome: 'got_help' })),
    ).toMatchObject({
      kind: 'conflict',
    })
    await sending.useCases.referrals.move.execute(sending.admin, id, 'cancel')
    await dispatch()
    expect((await atReceiver(id))?.status).toBe('cancelled')
  })

  test('revoked consent erases the values the receiver took, keeping the need; the referral shows it', async () => {
    const id = await received()
    const revoked = await sending.useCases.referrals.revokeConsent.execute(sending.admin, id)
    expect(revoked.consentRevokedAt).toEqual(clock.now())
    await dispatch()
    const referral = await atReceiver(id)
    expect(referral?.consentRevokedAt).toEqual(clock.now())
    const need = await receiving.repositories.needs.findById(receiving.organizationId, referral!.needId)
    expect(need?.customFields).toEqual({ description: 'Needs groceries' })
    const person = await receiving.repositories.constituents.findById(receiving.organizationId, need!.constituentId!)
    expect([person?.firstName, person?.phone]).toEqual([undefined, undefined])
  })

  test('a referral whose message ran out of tries shows not delivered, and is sent again', async () => {
    transport.down = true
    const sent = await send()
    for (let attempt = 0; attempt < 8; attempt++) {
      await dispatch()
      clock.advance(7 * HOUR)
    }
    expect((await sending.useCases.referrals.get.execute(sending.admin, sent.id)).notDelivered).toBe(true)
    transport.down = false
    const again = await sending.useCases.referrals.sendAgain.execute(sending.admin, sent.id)
    expect(again.notDelivered).toBeUndefined()
    await dispatch()
    expect((await atReceiver(sent.id))?.status).toBe('received')
  })
})
