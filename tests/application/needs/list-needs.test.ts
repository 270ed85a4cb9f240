import { beforeEach, describe, expect, test } from 'bun:test'
import type { CreateNeedInput } from '../../../src/application/needs/create-need'
import type { ListNeeds } from '../../../src/application/needs/list-needs'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Need } from '../../../src/domain/needs/need'
import type { NeedListFilter } from '../../../src/application/needs/list-needs'
import type { NeedSort } from '../../../src/domain/needs/search'
import { createWorld, type World } from '../../support/world'
import { seedConstituent } from './seed-constituent'

let world: World
let listNeeds: ListNeeds
beforeEach(async () => {
  world = await createWorld()
  listNeeds = world.useCases.needs.list
})

/** Creates a need a minute after the previous one, so the newest-first order is known. */
async function needCreated(input: Partial<CreateNeedInput> = {}, w: World = world): Promise<Need> {
  w.clock.advance(60_000)
  return w.useCases.needs.create.execute(w.admin, { partnerId: w.defaultPartner.id, ...input })
}

const refsOf = async (actor: Actor, filter: NeedListFilter = {}, page = { page: 1, limit: 100 }) =>
  (await listNeeds.execute(actor, filter, page)).items.map((n) => n.referenceNumber)

describe('ListNeeds', () => {
  test('lists the needs of the organization, newest first', async () => {
    for (let i = 0; i < 3; i++) await needCreated()
    expect(await refsOf(world.admin)).toEqual(['REQ-1003', 'REQ-1002', 'REQ-1001'])
  })

  test('overdue lists open needs past their due date as of the clock; dueBefore open needs due before it; soonest due first', async () => {
    const soon = await world.partner({ slaHours: 1 })
    const late = await needCreated({ partnerId: soon.id }) // due 1 hour after creation
    const resolved = await needCreated({ partnerId: soon.id, status: 'RESOLVED' })
    const byHand = await needCreated({ dueDate: new Date(world.clock.now().getTime() + 3 * 3_600_000) })
    await needCreated() // due in 72 hours
    expect(resolved.status).toBe('RESOLVED')
    expect(await refsOf(world.admin, { overdue: true })).toEqual([])
    world.clock.advance(2 * 3_600_000)
    expect(await refsOf(world.admin, { overdue: true })).toEqual([late.referenceNumber])
    const inFourHours = new Date(world.clock.now().getTime() + 2 * 3_600_000)
    expect(await refsOf(world.admin, { dueBefore: inFourHours })).toEqual([late.referenceNumber, byHand.referenceNumber])
    expect(await refsOf(world.admin, { dueBefore: inFourHours, overdue: true })).toEqual([late.referenceNumber])
    expect(await refsOf(world.admin, { overdue: true, statuses: ['IN_PROGRESS'] })).toEqual([])
    const agent = await world.member('partner_agent', { partnerId: world.defaultPartner.id })
    expect(await refsOf(agent, { dueBefore: inFourHours })).toEqual([byHand.referenceNumber])
  })

  test("never lists another organization's needs", async () => {
    await needCreated()
    const other = await world.otherOrganization()
    await needCreated({}, other)
    const listed = (await listNeeds.execute(world.admin, {}, { page: 1, limit: 100 })).items
    expect(listed.map((n) => n.organizationId)).toEqual([world.organizationId])
  })

  test('pages the list and tells the total', async () => {
    for (let i = 0; i < 5; i++) await needCreated()
    const pages = await Promise.all([1, 2, 3, 4].map((page) => listNeeds.execute(world.admin, {}, { page, limit: 2 })))
    expect(pages.map((p) => p.items.map((n) => n.referenceNumber))).toEqual([
      ['REQ-1005', 'REQ-1004'],
      ['REQ-1003', 'REQ-1002'],
      ['REQ-1001'],
      [],
    ])
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5, 5])
  })

  describe('filters', () => {
    test('by one status or several', async () => {
      await needCreated({ status: 'NEW' })
      await needCreated({ status: 'ESCALATED' })
      await needCreated({ status: 'RESOLVED' })
      expect(await refsOf(world.admin, { statuses: ['ESCALATED'] })).toEqual(['REQ-1002'])
      expect(await refsOf(world.admin, { statuses: ['NEW', 'RESOLVED'] })).toEqual(['REQ-1003', 'REQ-1001'])
    })

    test('by partner, assignee and constituent', async () => {
      const pantry = await world.partner()
      const staff = await world.member('staff')
      const { constituentId } = await seedConstituent(world)
      await needCreated({ partnerId: pantry.id })
      await needCreated({ assignedTo: staff.memberId })
      await needCreated({ constituentId })
      expect(await refsOf(world.admin, { partnerId: pantry.id })).toEqual(['REQ-1001'])
      expect(await refsOf(world.admin, { assignedTo: staff.memberId })).toEqual(['REQ-1002'])
      expect(await refsOf(world.admin, { constituentId })).toEqual(['REQ-1003'])
    })

    test('combine, and the total counts only what matches', async () => {
      const pantry = await world.partner()
      await needCreated({ partnerId: pantry.id, status: 'NEW' })
      await needCreated({ partnerId: pantry.id, status: 'IN_PROGRESS' })
      await needCreated({ status: 'NEW' })
      const page = await listNeeds.execute(world.admin, { partnerId: pantry.id, statuses: ['NEW'] }, { page: 1, limit: 25 })
      expect(page.items.map((n) => n.referenceNumber)).toEqual(['REQ-1001'])
      expect(page.total).toBe(1)
    })
  })

  describe('partner scope', () => {
    test("partner roles see their own partner's needs only", async () => {
      const pantry = await world.partner()
      await needCreated({ partnerId: pantry.id })
      await needCreated()
      for (const role of ['partner_admin', 'partner_agent', 'volunteer'] as const) {
        const actor = await world.member(role, { partnerId: pantry.id })
        const page = await listNeeds.execute(actor, {}, { page: 1, limit: 25 })
        expect(page.items.map((n) => n.referenceNumber)).toEqual(['REQ-1001'])
        expect(page.total).toBe(1)
      }
    })

    test("a partner role asking for another partner's needs gets none", async () => {
      const pantry = await world.partner()
      await needCreated()
      const agent = await world.member('partner_agent', { partnerId: pantry.id })
      expect(await listNeeds.execute(agent, { partnerId: world.defaultPartner.id }, { page: 1, limit: 25 })).toEqual({
        items: [],
        total: 0,
      })
    })

    test('a partner role without a partner sees nothing', async () => {
      await needCreated()
      const agent = await world.member('partner_agent')
      expect(await refsOf(agent)).toEqual([])
    })

    test('staff see the needs of every partner', async () => {
      const pantry = await world.partner()
      await needCreated({ partnerId: pantry.id })
      await needCreated()
      const staff = await world.member('staff', { partnerId: pantry.id })
      expect(await refsOf(staff)).toEqual(['REQ-1002', 'REQ-1001'])
    })
  })

  describe('confidential needs', () => {
    test('come with customFields emptied to callers who may not read them, other needs untouched', async () => {
      await needCreated({ isConfidential: true, customFields: { story: 'private' } })
      await needCreated({ customFields: { story: 'public' } })
      const staff = await world.member('staff')
      const listed = (await listNeeds.execute(staff, {}, { page: 1, limit: 25 })).items
      expect(listed.map((n) => [n.referenceNumber, n.isConfidential, n.customFields])).toEqual([
        ['REQ-1002', false, { story: 'public' }],
        ['REQ-1001', true, {}],
      ])
    })

    test('come whole to org_admin and to holders of pii_reader', async () => {
      await needCreated({ isConfidential: true, customFields: { story: 'private' } })
      const reader = await world.member('staff', { profiles: ['pii_reader'] })
      for (const actor of [world.admin, reader]) {
        expect((await listNeeds.execute(actor, {}, { page: 1, limit: 25 })).items[0]!.customFields).toEqual({ story: 'private' })
      }
    })
  })

  describe('search (q)', () => {
    test('finds needs by word prefixes of the reference, the description and the name, every word, with the other filters', async () => {
      const pantry = await world.partner()
      await needCreated({ partnerId: pantry.id, customFields: { description: 'Help with the rent' } })
      await needCreated({ customFields: { description: 'Necesito comida', firstName: 'José', lastName: 'Núñez' } })
      await needCreated({ status: 'RESOLVED', customFields: { description: 'Rent again' } })

      expect(await refsOf(world.admin, { q: 'RENT' })).toEqual(['REQ-1003', 'REQ-1001'])
      expect(await refsOf(world.admin, { q: 'rent help' })).toEqual(['REQ-1001'])
      expect(await refsOf(world.admin, { q: 'jose nunez' })).toEqual(['REQ-1002'])
      expect(await refsOf(world.admin, { q: 'req-1002' })).toEqual(['REQ-1002'])
      expect(await refsOf(world.admin, { q: 'rent', statuses: ['NEW'] })).toEqual(['REQ-1001'])
      expect(await refsOf(world.admin, { q: 'rent', partnerId: world.defaultPartner.id })).toEqual(['REQ-1003'])
      expect(await refsOf(world.admin, { q: '  ' })).toEqual(['REQ-1003', 'REQ-1002', 'REQ-1001'])
    })

    test('a partner role finds its own partner’s needs only', async () => {
      const pantry = await world.partner()
      await needCreated({ partnerId: pantry.id, customFields: { description: 'rent' } })
      await needCreated({ customFields: { description: 'rent' } })
      const agent = await world.member('partner_agent', { partnerId: pantry.id })
      expect(await refsOf(agent, { q: 'rent' })).toEqual(['REQ-1001'])
    })

    test('searches only what the reader may see: a confidential need’s text, and names', async () => {
      await needCreated({ isConfidential: true, customFields: { description: 'Eviction notice', firstName: 'Rena' } })
      await needCreated({ customFields: { description: 'Food', firstName: 'Ana', lastName: 'Evans' } })
      const staff = await world.member('staff')
      const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id })

      expect(await refsOf(world.admin, { q: 'evi' })).toEqual(['REQ-1001'])
      expect(await refsOf(world.admin, { q: 'ev' })).toEqual(['REQ-1002', 'REQ-1001'])
      expect(await refsOf(staff, { q: 'ev' })).toEqual(['REQ-1002'])
      expect(await refsOf(staff, { q: 'rena' })).toEqual([])
      expect(await refsOf(volunteer, { q: 'ana' })).toEqual([])
      expect(await refsOf(volunteer, { q: 'food' })).toEqual(['REQ-1002'])
    })
  })

  test('sort orders the list; overdue keeps soonest due first unless a sort is given', async () => {
    const soon = await world.partner({ slaHours: 1 })
    await needCreated({ partnerId: soon.id, status: 'IN_PROGRESS' })
    await needCreated({ partnerId: soon.id })
    const sorted = async (sort: NeedSort, filter: NeedListFilter = {}) =>
      (await listNeeds.execute(world.admin, filter, { page: 1, limit: 100 }, sort)).items.map((n) => n.referenceNumber)
    world.clock.advance(2 * 3_600_000)

    expect(await sorted('createdAt')).toEqual(['REQ-1001', 'REQ-1002'])
    expect(await sorted('status')).toEqual(['REQ-1002', 'REQ-1001'])
    expect(await sorted('-dueDate', { overdue: true })).toEqual(['REQ-1002', 'REQ-1001'])
    expect(await refsOf(world.admin, { overdue: true })).toEqual(['REQ-1001', 'REQ-1002'])
  })
})
