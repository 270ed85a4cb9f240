import { beforeEach, describe, expect, test } from 'bun:test'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { anInteraction } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { ALL, matchesOf, needFor, register, storedConstituent, storedNeed } from './steps'

// docs/privacy.md: an admin erases a person; every place that kept their details loses them.
let world: World
let ana: Constituent
const ANA = {
  firstName: 'Anastasia',
  lastName: 'Wrzesinska',
  phone: '+15039871234',
  email: 'anastasia.w@example.org',
  dateOfBirth: '1971-03-09',
  addressStreet: '4417 Larkspur Lane',
  addressCity: 'Gresham',
  addressState: 'OR',
  addressZip: '97030',
} as const

beforeEach(async () => {
  world = await createWorld()
  ana = await register(world, ANA)
})

const erase = (id = ana.id, actor = world.admin) => world.useCases.constituents.erase.execute(actor, id)
const write = <T>(work: (r: Repositories) => Promise<T>) => world.container.get(PORTS.unitOfWork).run(work)

describe('EraseConstituent', () => {
  test('empties the record, keeping its ids and times, and says when it was erased', async () => {
    world.clock.advance(60_000)
    const erased = await erase()
    const expected = {
      id: ana.id,
      organizationId: world.organizationId,
      householdId: ana.householdId,
      createdAt: ana.createdAt,
      updatedAt: world.clock.now(),
      erasedAt: world.clock.now(),
    }
    expect(erased).toEqual(expected)
    expect(await storedConstituent(world, ana.id)).toEqual(expected)
  })

  test('keeps the person’s needs, linked to the record, without the contact keys of their intake', async () => {
    const need = await needFor(world, { constituentId: ana.id, customFields: { ...ANA, householdSize: 3, story: 'needs a ride' } })
    await erase()
    expect(await storedNeed(world, need.id)).toMatchObject({
      constituentId: ana.id,
      customFields: { householdSize: 3, story: 'needs a ride' },
    })
    expect(Object.keys((await storedNeed(world, need.id))!.customFields).sort()).toEqual(['householdSize', 'story'])
  })

  test('removes the household matches naming the person, and no others', async () => {
    const twin = await register(world, { firstName: 'Anya', phone: ANA.phone })
    const apart = await register(world, { firstName: 'Bo', lastName: 'Lind', email: 'bo@example.org' })
    await register(world, { firstName: 'Bea', lastName: 'Lind', email: 'bo@example.org' })
    expect((await matchesOf(world)).some((m) => [m.constituentId, m.candidateConstituentId].includes(ana.id))).toBe(true)
    await erase()
    const left = await matchesOf(world)
    expect(left.flatMap((m) => [m.constituentId, m.candidateConstituentId])).not.toContain(ana.id)
    expect(left.flatMap((m) => [m.constituentId, m.candidateConstituentId])).toContain(apart.id)
    expect(left.flatMap((m) => [m.constituentId, m.candidateConstituentId])).not.toContain(twin.id)
  })

  test('forgets the number of the person’s texts and takes the messages to them out of the outbox, unsent texts marked failed', async () => {
    const need = await needFor(world, { constituentId: ana.id })
    const inbound = anInteraction({
      organizationId: world.organizationId,
      needId: need.id,
      constituentId: ana.id,
      channel: 'sms',
      direction: 'inbound',
      senderIdentifier: ANA.phone,
      content: 'thanks',
    })
    const outbound = anInteraction({
      organizationId: world.organizationId,
      needId: need.id,
      constituentId: ana.id,
      channel: 'sms',
      direction: 'outbound',
      senderIdentifier: '+15550001111',
      content: 'Your box is ready',
      deliveryStatus: 'queued',
    })
    const [messageId, mailId] = [crypto.randomUUID(), crypto.randomUUID()]
    await write(async (r) => {
      await r.interactions.insert(inbound)
      await r.interactions.insert(outbound)
      await r.outbox.enqueue({
        id: messageId,
        organizationId: world.organizationId,
        payload: { channel: 'sms', sms: { from: '+15550001111', to: ANA.phone, body: 'Your box is ready', interactionId: outbound.id } },
        status: 'pending',
        attempts: 0,
        nextAttemptAt: world.clock.now(),
        createdAt: world.clock.now(),
      })
      await r.outbox.enqueue({
        id: mailId,
        organizationId: world.organizationId,
        payload: {
          channel: 'email',
          email: { template: 'requester_confirmation', to: ANA.email, subject: 'Your request', text: 'Keep your reference number.' },
        },
        status: 'sent',
        attempts: 1,
        nextAttemptAt: world.clock.now(),
        createdAt: world.clock.now(),
        sentAt: world.clock.now(),
      })
    })

    await erase()

    expect(await world.repositories.interactions.findById(world.organizationId, inbound.id)).toEqual({ ...inbound, senderIdentifier: '' })
    expect(await world.repositories.interactions.findById(world.organizationId, outbound.id)).toEqual({
      ...outbound,
      deliveryStatus: 'failed',
    })
    expect(await world.repositories.outbox.findById(messageId)).toBeUndefined()
    expect(await world.repositories.outbox.findById(mailId)).toBeUndefined()
  })

  test('leaves nothing of the person for search, the household or an export to find', async () => {
    await erase()
    const search = world.useCases.constituents.search
    for (const query of [ANA.firstName, ANA.lastName, ANA.phone, '9871234', ANA.email]) {
      expect({ query, found: (await search.execute(world.admin, query, ALL)).items }).toEqual({ query, found: [] })
    }
    const answers: unknown[] = [
      await search.execute(world.admin, '', ALL),
      await world.useCases.constituents.household.execute(world.admin, ana.id),
    ]
    for await (const batch of await world.useCases.constituents.export.execute(world.admin, undefined)) answers.push(batch)
    const text = JSON.stringify(answers)
    for (const value of Object.values(ANA)) expect(text).not.toContain(value)
  })

  test('is recorded as an erase of the constituent, with no field named', async () => {
    await erase()
    const { items } = await world.useCases.audit.list.execute(
      world.admin,
      { recordType: 'constituent', recordId: ana.id, action: 'erase' },
      ALL,
    )
    expect(items).toEqual([
      expect.objectContaining({ memberId: world.admin.memberId, action: 'erase', recordType: 'constituent', recordId: ana.id }),
    ])
    expect(items[0]).not.toHaveProperty('fields')
  })

  test('erasing again changes nothing and records nothing', async () => {
    const first = await erase()
    world.clock.advance(60_000)
    expect(await erase()).toEqual(first)
    expect(await storedConstituent(world, ana.id)).toEqual(first)
    const { total } = await world.useCases.audit.list.execute(world.admin, { action: 'erase' }, ALL)
    expect(total).toBe(1)
  })

  test('an erased person is merged with no one, on either side, and given no details again (409)', async () => {
    const other = await register(world, { firstName: 'Oda' })
    await erase()
    const merge = world.useCases.constituents.merge
    for (const [source, target] of [
      [ana, other],
      [other, ana],
    ] as const) {
      await failureOf(merge.execute(world.admin, { sourceConstituentId: source.id, targetConstituentId: target.id }), ConflictError)
    }
    await failureOf(world.useCases.constituents.update.execute(world.admin, ana.id, { firstName: 'Ana' }), ConflictError)
    expect(await storedConstituent(world, other.id)).toEqual(other)
  })

  test('an erased person takes no new need (400 naming constituentId); the person is registered anew', async () => {
    await erase()
    const failure = await failureOf(needFor(world, { constituentId: ana.id }), InvalidError)
    expect(failure.errors).toEqual([{ path: '/constituentId', message: 'names an erased constituent, who takes no new needs' }])
    const anew = await needFor(world, { customFields: { firstName: ANA.firstName, phone: ANA.phone } })
    expect(anew.constituentId).not.toBe(ana.id)
  })

  test('is the organization admin’s only (403), and finds no one of another organization (404)', async () => {
    for (const role of ['staff', 'partner_admin'] as const) {
      const actor = await world.member(
        role,
        role === 'partner_admin' ? { partnerId: world.defaultPartner.id, profiles: ['pii_reader', 'duplicate_resolver'] } : {},
      )
      await failureOf(erase(ana.id, actor), ForbiddenError)
    }
    const other = await world.otherOrganization()
    await failureOf(erase(ana.id, other.admin), NotFoundError)
    expect(await storedConstituent(world, ana.id)).toEqual(ana)
  })
})
