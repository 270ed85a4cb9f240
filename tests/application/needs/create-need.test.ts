import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateNeed } from '../../../src/application/needs/create-need'
import { ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { actorFor } from '../../support/builders'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'
import { seedConstituent } from './seed-constituent'

let world: World
let createNeed: CreateNeed
beforeEach(async () => {
  world = await createWorld()
  createNeed = world.useCases.needs.create
})

const countNeeds = async () => (await world.useCases.needs.list.execute(world.admin, {}, { page: 1, limit: 100 })).total

describe('CreateNeed', () => {
  test('numbers needs REQ-1001, REQ-1002, … in the order they are created', async () => {
    const numbers = []
    for (let i = 0; i < 3; i++)
      numbers.push((await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })).referenceNumber)
    expect(numbers).toEqual(['REQ-1001', 'REQ-1002', 'REQ-1003'])
  })

  test('keeps one sequence per organization', async () => {
    await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
    const other = await world.otherOrganization()
    const first = await createNeed.execute(other.admin, { partnerId: other.defaultPartner.id })
    expect(first.referenceNumber).toBe('REQ-1001')
  })

  test("prefixes reference numbers with the organization's short code", async () => {
    const created = await world.useCases.operations.createOrganization.execute({
      name: 'Food Bank',
      slug: 'food-bank',
      shortCode: 'FOOD',
      adminEmail: 'admin@food.example.org',
      adminPassword: TEST_PASSWORD,
    })
    const admin = await world.repositories.members.findById(created.organizationId, created.adminMemberId)
    const need = await createNeed.execute(actorFor(admin!), { partnerId: created.defaultPartnerId })
    expect(need.referenceNumber).toBe('FOOD-1001')
  })

  test('a refused need does not use up a reference number', async () => {
    await failureOf(createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, assignedTo: crypto.randomUUID() }), InvalidError)
    expect((await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })).referenceNumber).toBe('REQ-1001')
  })

  test("sets the due date to the creation time plus the partner's slaHours", async () => {
    const partner = await world.partner({ slaHours: 5 })
    world.clock.advance(60_000)
    const need = await createNeed.execute(world.admin, { partnerId: partner.id })
    expect(need.createdAt).toEqual(world.clock.now())
    expect(need.dueDate!.getTime() - need.createdAt.getTime()).toBe(5 * 3_600_000)
  })

  test('starts as NEW when no status is sent, and takes the status sent', async () => {
    expect((await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })).status).toBe('NEW')
    expect((await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, status: 'ESCALATED' })).status).toBe('ESCALATED')
  })

  test('stores the need as answered, with its creator and the fields sent', async () => {
    const assignee = await world.member('staff')
    const need = await createNeed.execute(world.admin, {
      partnerId: world.defaultPartner.id,
      assignedTo: assignee.memberId,
      customFields: { description: 'Needs groceries', householdSize: 4 },
      isConfidential: true,
    })
    expect(need).toMatchObject({
      organizationId: world.organizationId,
      partnerId: world.defaultPartner.id,
      assignedTo: assignee.memberId,
      createdBy: world.admin.memberId,
      customFields: { description: 'Needs groceries', householdSize: 4 },
      isConfidential: true,
    })
    expect(await world.repositories.needs.findById(world.organizationId, need.id)).toEqual(need)
  })

  test('is not confidential unless asked', async () => {
    expect((await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })).isConfidential).toBe(false)
  })

  test('writes the first history entry: the initial status, by whom and when', async () => {
    const need = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
    const history = (await world.repositories.needs.listChanges(world.organizationId, need.id, { page: 1, limit: 100 })).items
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ field: 'status', to: 'NEW', changedBy: world.admin.memberId, changedAt: world.clock.now() })
    expect(history[0]!.from).toBeUndefined()
  })

  test("links the constituent and takes the constituent's household when none is sent", async () => {
    const { constituentId, householdId } = await seedConstituent(world)
    const need = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, constituentId })
    expect(need).toMatchObject({ constituentId, householdId })
  })

  test("refuses a household that is not the constituent's own", async () => {
    const { constituentId } = await seedConstituent(world)
    const { householdId: otherHousehold } = await seedConstituent(world)
    const error = await failureOf(
      createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, constituentId, householdId: otherHousehold }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/householdId'])
  })

  test('links a parent need of the organization', async () => {
    const parent = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
    const child = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, parentNeedId: parent.id })
    expect(child.parentNeedId).toBe(parent.id)
  })

  describe('references outside the organization', () => {
    test('refuses every reference to another organization at once, naming each field', async () => {
      const other = await world.otherOrganization()
      const otherNeed = await other.useCases.needs.create.execute(other.admin, { partnerId: other.defaultPartner.id })
      const { constituentId, householdId } = await seedConstituent(other)
      const error = await failureOf(
        createNeed.execute(world.admin, {
          partnerId: other.defaultPartner.id,
          assignedTo: other.admin.memberId,
          parentNeedId: otherNeed.id,
          constituentId,
        }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/assignedTo', '/constituentId', '/parentNeedId', '/partnerId'])
      const householdError = await failureOf(
        createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, householdId }),
        InvalidError,
      )
      expect(pathsOf(householdError)).toEqual(['/householdId'])
    })

    test('refuses ids that name nothing at all the same way', async () => {
      const error = await failureOf(
        createNeed.execute(world.admin, {
          partnerId: crypto.randomUUID(),
          assignedTo: crypto.randomUUID(),
          parentNeedId: crypto.randomUUID(),
          constituentId: crypto.randomUUID(),
        }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/assignedTo', '/constituentId', '/parentNeedId', '/partnerId'])
    })

    test("refuses, to a partner role, another partner's need as parent, as it refuses an unknown one", async () => {
      const pantry = await world.partner({ name: 'Pantry' })
      const theirs = await createNeed.execute(world.admin, { partnerId: pantry.id })
      const ours = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
      for (const role of ['partner_admin', 'partner_agent'] as const) {
        const member = await world.member(role, { partnerId: world.defaultPartner.id })
        const refusals = []
        for (const parentNeedId of [theirs.id, crypto.randomUUID()]) {
          const error = await failureOf(createNeed.execute(member, { partnerId: world.defaultPartner.id, parentNeedId }), InvalidError)
          refusals.push(error.errors)
        }
        expect(refusals[0]).toEqual(refusals[1]!)
        expect(refusals[0]!.map((e) => e.path)).toEqual(['/parentNeedId'])
        expect((await createNeed.execute(member, { partnerId: world.defaultPartner.id, parentNeedId: ours.id })).parentNeedId).toBe(ours.id)
      }
      // Roles that see the whole organization link any of its needs.
      const staff = await world.member('staff')
      expect((await createNeed.execute(staff, { partnerId: world.defaultPartner.id, parentNeedId: theirs.id })).parentNeedId).toBe(
        theirs.id,
      )
      expect(await countNeeds()).toBe(5)
    })

    test('stores nothing when a reference is refused', async () => {
      await failureOf(
        createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, parentNeedId: crypto.randomUUID() }),
        InvalidError,
      )
      expect(await countNeeds()).toBe(0)
    })
  })

  test('refuses an archived partner', async () => {
    const archived = await world.partner({ isArchived: true })
    const error = await failureOf(createNeed.execute(world.admin, { partnerId: archived.id }), InvalidError)
    expect(pathsOf(error)).toEqual(['/partnerId'])
  })

  describe('who may create', () => {
    test('org_admin, staff, partner_admin and partner_agent may', async () => {
      for (const role of ['staff', 'partner_admin', 'partner_agent'] as const) {
        const actor = await world.member(role, { partnerId: world.defaultPartner.id })
        expect((await createNeed.execute(actor, { partnerId: world.defaultPartner.id })).createdBy).toBe(actor.memberId)
      }
    })

    test('a volunteer without intake_staff may not', async () => {
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['needs_processor'] })
      await failureOf(createNeed.execute(volunteer, { partnerId: world.defaultPartner.id }), ForbiddenError)
      expect(await countNeeds()).toBe(0)
    })

    test('a volunteer with intake_staff may, for its own partner', async () => {
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
      expect((await createNeed.execute(volunteer, { partnerId: world.defaultPartner.id })).partnerId).toBe(world.defaultPartner.id)
    })

    test('a partner member may not create a need for another partner', async () => {
      const other = await world.partner()
      for (const role of ['partner_admin', 'partner_agent'] as const) {
        const actor = await world.member(role, { partnerId: world.defaultPartner.id })
        await failureOf(createNeed.execute(actor, { partnerId: other.id }), ForbiddenError)
      }
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['intake_staff'] })
      await failureOf(createNeed.execute(volunteer, { partnerId: other.id }), ForbiddenError)
      expect(await countNeeds()).toBe(0)
    })

    test('staff may create needs for any partner of the organization', async () => {
      const other = await world.partner()
      const staff = await world.member('staff')
      expect((await createNeed.execute(staff, { partnerId: other.id })).partnerId).toBe(other.id)
    })
  })

  test('answers a confidential need with its customFields emptied to a creator who may not read them', async () => {
    const agent = await world.member('partner_agent', { partnerId: world.defaultPartner.id })
    const need = await createNeed.execute(agent, {
      partnerId: world.defaultPartner.id,
      isConfidential: true,
      customFields: { story: 'private' },
    })
    expect(need.customFields).toEqual({})
    expect((await world.repositories.needs.findById(world.organizationId, need.id))!.customFields).toEqual({ story: 'private' })
  })

  describe('customFields', () => {
    test('validates the contact keys like constituent fields, reporting each bad one', async () => {
      const error = await failureOf(
        createNeed.execute(world.admin, {
          partnerId: world.defaultPartner.id,
          customFields: { phone: '555-1234', email: 'not-an-email', dateOfBirth: '2023-02-29', addressState: 'XX', addressZip: '123' },
        }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual([
        '/customFields/addressState',
        '/customFields/addressZip',
        '/customFields/dateOfBirth',
        '/customFields/email',
        '/customFields/phone',
      ])
    })

    test('accepts valid contact keys and any other key', async () => {
      const customFields = { phone: '+15551234567', dateOfBirth: '2024-02-29', addressState: 'PR', addressZip: '00901', shoeSize: 9 }
      expect((await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields })).customFields).toEqual(
        customFields,
      )
    })

    test('accepts 50 keys and refuses 51', async () => {
      const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
      await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: keys(50) })
      const error = await failureOf(
        createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: keys(51) }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/customFields'])
    })

    test('accepts 16 KiB of JSON and refuses more', async () => {
      const ofBytes = (bytes: number) => ({ notes: 'x'.repeat(bytes - '{"notes":""}'.length) })
      await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: ofBytes(16_384) })
      const error = await failureOf(
        createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: ofBytes(16_385) }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/customFields'])
    })

    test('refuses nesting deeper than 64 levels, however deep, without overflowing the stack', async () => {
      const nested = (levels: number) => {
        let value: unknown = 1
        for (let i = 0; i < levels; i++) value = [value]
        return value
      }
      // customFields itself is the first level.
      await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: { a: nested(63) } })
      for (const levels of [64, 60_000]) {
        const error = await failureOf(
          createNeed.execute(world.admin, { partnerId: world.defaultPartner.id, customFields: { a: nested(levels) } }),
          InvalidError,
        )
        expect(error.errors).toEqual([{ path: '/customFields', message: 'must nest at most 64 levels' }])
      }
    })
  })
})
