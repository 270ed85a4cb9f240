import { beforeEach, describe, expect, test } from 'bun:test'
import type { ListMembers } from '../../../src/application/members/list-members'
import type { Actor } from '../../../src/domain/auth/actor'
import { ForbiddenError } from '../../../src/domain/errors'
import type { Partner } from '../../../src/domain/partners/partner'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

const ALL = { page: 1, limit: 100 }

let world: World
let listMembers: ListMembers
let pantry: Partner
let shelter: Partner
let pantryAdmin: Actor
let pantryAgent: Actor
let pantryVolunteer: Actor
let shelterAgent: Actor
let staff: Actor
beforeEach(async () => {
  world = await createWorld()
  listMembers = world.useCases.members.list
  pantry = await world.partner({ name: 'Pantry' })
  shelter = await world.partner({ name: 'Shelter' })
  // createdAt one minute apart, so "newest first" has one answer
  const at = (minutes: number) => new Date(world.clock.now().getTime() + minutes * 60_000)
  staff = await world.member('staff', { createdAt: at(1) })
  pantryAdmin = await world.member('partner_admin', { partnerId: pantry.id, createdAt: at(2) })
  pantryAgent = await world.member('partner_agent', { partnerId: pantry.id, createdAt: at(3), passwordHash: 'secret-hash' })
  pantryVolunteer = await world.member('volunteer', { partnerId: pantry.id, createdAt: at(4) })
  shelterAgent = await world.member('partner_agent', { partnerId: shelter.id, createdAt: at(5) })
})

const idsOf = (items: Array<{ id: string }>) => items.map((m) => m.id)

describe('ListMembers', () => {
  test('an org_admin sees the whole organization, newest first', async () => {
    const page = await listMembers.execute(world.admin, ALL)
    expect(page.total).toBe(6)
    expect(idsOf(page.items)).toEqual([shelterAgent, pantryVolunteer, pantryAgent, pantryAdmin, staff, world.admin].map((a) => a.memberId))
  })

  test('staff see the whole organization too', async () => {
    const page = await listMembers.execute(staff, ALL)
    expect(page.total).toBe(6)
  })

  test("a partner_admin sees only its own partner's members", async () => {
    const page = await listMembers.execute(pantryAdmin, ALL)
    expect(page.total).toBe(3)
    expect(idsOf(page.items)).toEqual([pantryVolunteer, pantryAgent, pantryAdmin].map((a) => a.memberId))
  })

  test('partner_agent and volunteer may not list members (Forbidden), whatever their profiles', async () => {
    for (const actor of [pantryAgent, pantryVolunteer]) await failureOf(listMembers.execute(actor, ALL), ForbiddenError)
    const processor = await world.member('volunteer', {
      partnerId: pantry.id,
      profiles: ['needs_processor', 'intake_staff', 'pii_reader', 'duplicate_resolver'],
    })
    await failureOf(listMembers.execute(processor, ALL), ForbiddenError)
  })

  test("never lists another organization's members", async () => {
    const other = await world.otherOrganization()
    await other.member('staff')
    const theirs = await listMembers.execute(other.admin, ALL)
    expect(idsOf(theirs.items)).not.toContain(staff.memberId)
    expect(theirs.total).toBe(2)
    expect((await listMembers.execute(world.admin, ALL)).total).toBe(6)
  })

  test('pages: limit and page pick the slice, total counts them all', async () => {
    const first = await listMembers.execute(world.admin, { page: 1, limit: 4 })
    const second = await listMembers.execute(world.admin, { page: 2, limit: 4 })
    const beyond = await listMembers.execute(world.admin, { page: 3, limit: 4 })
    expect(first.items).toHaveLength(4)
    expect(second.items).toHaveLength(2)
    expect(beyond.items).toEqual([])
    expect([first.total, second.total, beyond.total]).toEqual([6, 6, 6])
    expect(idsOf([...first.items, ...second.items])).toEqual(idsOf((await listMembers.execute(world.admin, ALL)).items))
  })

  test("views carry no password hash, no organizationId, no createdAt, and the partner's name", async () => {
    const { items } = await listMembers.execute(world.admin, ALL)
    for (const view of items) {
      expect(view).not.toHaveProperty('passwordHash')
      expect(view).not.toHaveProperty('organizationId')
      expect(view).not.toHaveProperty('createdAt')
    }
    expect(JSON.stringify(items)).not.toContain('secret-hash')
    const agent = items.find((m) => m.id === pantryAgent.memberId)!
    expect(agent).toMatchObject({ role: 'partner_agent', partnerId: pantry.id, partnerName: 'Pantry', isConfirmed: true })
    expect(items.find((m) => m.id === shelterAgent.memberId)!.partnerName).toBe('Shelter')
    expect(items.find((m) => m.id === staff.memberId)).not.toHaveProperty('partnerName')
  })
})
