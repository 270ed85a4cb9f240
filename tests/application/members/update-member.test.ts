import { beforeEach, describe, expect, test } from 'bun:test'
import type { UpdateMember } from '../../../src/application/members/update-member'
import type { Actor } from '../../../src/domain/auth/actor'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { Member } from '../../../src/domain/members/member'
import type { Partner } from '../../../src/domain/partners/partner'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

let world: World
let updateMember: UpdateMember
let pantry: Partner
let shelter: Partner
beforeEach(async () => {
  world = await createWorld()
  updateMember = world.useCases.members.update
  pantry = await world.partner({ name: 'Pantry' })
  shelter = await world.partner({ name: 'Shelter' })
})

const stored = async (actor: Actor, w = world): Promise<Member> =>
  (await w.repositories.members.findById(actor.organizationId, actor.memberId))!

describe('UpdateMember', () => {
  test('changes the role and answers the view; the change is stored', async () => {
    const staff = await world.member('staff')
    const view = await updateMember.execute(world.admin, staff.memberId, { role: 'org_admin' })
    expect(view).toMatchObject({ id: staff.memberId, role: 'org_admin' })
    expect(view).not.toHaveProperty('passwordHash')
    expect((await stored(staff)).role).toBe('org_admin')
  })

  test("moves a member to a partner role with its partner, and answers the partner's name", async () => {
    const staff = await world.member('staff')
    const view = await updateMember.execute(world.admin, staff.memberId, { role: 'partner_agent', partnerId: pantry.id })
    expect(view).toMatchObject({ role: 'partner_agent', partnerId: pantry.id, partnerName: 'Pantry' })
    expect(await stored(staff)).toMatchObject({ role: 'partner_agent', partnerId: pantry.id })
  })

  test('a partner role keeps its partner when partnerId is left out', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const view = await updateMember.execute(world.admin, agent.memberId, { role: 'volunteer' })
    expect(view).toMatchObject({ role: 'volunteer', partnerId: pantry.id })
    expect((await stored(agent)).partnerId).toBe(pantry.id)
  })

  test('a partner role moves to another partner when one is given', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    await updateMember.execute(world.admin, agent.memberId, { role: 'partner_agent', partnerId: shelter.id })
    expect((await stored(agent)).partnerId).toBe(shelter.id)
  })

  test('becoming staff drops the partner', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const view = await updateMember.execute(world.admin, agent.memberId, { role: 'staff' })
    expect(view).not.toHaveProperty('partnerId')
    expect(view).not.toHaveProperty('partnerName')
    expect((await stored(agent)).partnerId).toBeUndefined()
  })

  test('staff with a partnerId is Invalid at /partnerId and nothing changes', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const error = await failureOf(updateMember.execute(world.admin, agent.memberId, { role: 'staff', partnerId: pantry.id }), InvalidError)
    expect(pathsOf(error)).toEqual(['/partnerId'])
    expect(await stored(agent)).toMatchObject({ role: 'partner_agent', partnerId: pantry.id })
  })

  test('a partner role for a member without a partner needs a partnerId (Invalid at /partnerId)', async () => {
    const staff = await world.member('staff')
    expect(pathsOf(await failureOf(updateMember.execute(world.admin, staff.memberId, { role: 'volunteer' }), InvalidError))).toEqual([
      '/partnerId',
    ])
    expect((await stored(staff)).role).toBe('staff')
  })

  test("an unknown or another organization's partner is Invalid at /partnerId", async () => {
    const staff = await world.member('staff')
    const other = await world.otherOrganization()
    for (const partnerId of [crypto.randomUUID(), other.defaultPartner.id]) {
      const error = await failureOf(updateMember.execute(world.admin, staff.memberId, { role: 'partner_agent', partnerId }), InvalidError)
      expect(pathsOf(error)).toEqual(['/partnerId'])
    }
    expect((await stored(staff)).role).toBe('staff')
  })

  describe('phone and profiles', () => {
    test('phone left out is kept; a new one replaces it; null clears it', async () => {
      const staff = await world.member('staff', { phone: '+15550000001' })
      expect((await updateMember.execute(world.admin, staff.memberId, { role: 'staff' })).phone).toBe('+15550000001')
      await updateMember.execute(world.admin, staff.memberId, { role: 'staff', phone: '+15550000002' })
      expect((await stored(staff)).phone).toBe('+15550000002')
      const cleared = await updateMember.execute(world.admin, staff.memberId, { role: 'staff', phone: null })
      expect(cleared).not.toHaveProperty('phone')
      expect((await stored(staff)).phone).toBeUndefined()
    })

    test('profiles replace the list, repeated ones collapse; left out they are kept', async () => {
      const staff = await world.member('staff', { profiles: ['pii_reader'] })
      await updateMember.execute(world.admin, staff.memberId, { role: 'staff' })
      expect((await stored(staff)).profiles).toEqual(['pii_reader'])
      await updateMember.execute(world.admin, staff.memberId, {
        role: 'staff',
        profiles: ['sms_communicator', 'intake_staff', 'sms_communicator'],
      })
      expect((await stored(staff)).profiles).toEqual(['sms_communicator', 'intake_staff'])
      await updateMember.execute(world.admin, staff.memberId, { role: 'staff', profiles: [] })
      expect((await stored(staff)).profiles).toEqual([])
    })

    test('email, name and confirmation are left alone', async () => {
      const staff = await world.member('staff', {
        fullName: 'Ana Lopez',
        email: 'ana@example.org',
        isConfirmed: true,
        passwordHash: 'hash',
      })
      await updateMember.execute(world.admin, staff.memberId, { role: 'partner_agent', partnerId: pantry.id, phone: '+15550000003' })
      expect(await stored(staff)).toMatchObject({
        fullName: 'Ana Lopez',
        email: 'ana@example.org',
        isConfirmed: true,
        passwordHash: 'hash',
      })
    })
  })

  describe('the last org_admin', () => {
    test('cannot be demoted (Conflict), and stays org_admin', async () => {
      await failureOf(updateMember.execute(world.admin, world.admin.memberId, { role: 'staff' }), ConflictError)
      expect((await stored(world.admin)).role).toBe('org_admin')
    })

    test('may still be updated as an org_admin (phone, profiles)', async () => {
      const view = await updateMember.execute(world.admin, world.admin.memberId, {
        role: 'org_admin',
        phone: '+15550000004',
        profiles: ['pii_reader'],
      })
      expect(view).toMatchObject({ role: 'org_admin', phone: '+15550000004', profiles: ['pii_reader'] })
    })

    test('with a second org_admin, one of them can be demoted; then the other is the last', async () => {
      const second = await world.member('org_admin')
      await updateMember.execute(world.admin, world.admin.memberId, { role: 'staff' })
      expect((await stored(world.admin)).role).toBe('staff')
      await failureOf(updateMember.execute(second, second.memberId, { role: 'staff' }), ConflictError)
      expect((await stored(second)).role).toBe('org_admin')
    })

    test('two admins demoting each other at the same time: one demotion wins, one org_admin is left', async () => {
      const second = await world.member('org_admin')
      const results = await Promise.allSettled([
        updateMember.execute(world.admin, second.memberId, { role: 'staff' }),
        updateMember.execute(second, world.admin.memberId, { role: 'staff' }),
      ])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError)
      expect(await world.repositories.members.countSigningInByRole(world.organizationId, 'org_admin')).toBe(1)
    })

    test('an org_admin who never accepted the invitation does not count: the last confirmed one stays', async () => {
      const invited = await world.member('org_admin', { isConfirmed: false })
      await failureOf(updateMember.execute(world.admin, world.admin.memberId, { role: 'staff' }), ConflictError)
      expect((await stored(world.admin)).role).toBe('org_admin')
      const view = await updateMember.execute(world.admin, invited.memberId, { role: 'staff' })
      expect(view.role).toBe('staff')
    })

    test("another organization's admins do not count", async () => {
      await world.otherOrganization()
      await failureOf(
        updateMember.execute(world.admin, world.admin.memberId, { role: 'partner_admin', partnerId: pantry.id }),
        ConflictError,
      )
    })
  })

  describe('a partner_admin', () => {
    let partnerAdmin: Actor
    beforeEach(async () => {
      partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
    })

    test('may change an agent of its own partner into a volunteer, and back', async () => {
      const agent = await world.member('partner_agent', { partnerId: pantry.id })
      expect((await updateMember.execute(partnerAdmin, agent.memberId, { role: 'volunteer' })).role).toBe('volunteer')
      expect((await updateMember.execute(partnerAdmin, agent.memberId, { role: 'partner_agent', phone: '+15550000005' })).phone).toBe(
        '+15550000005',
      )
      expect(await stored(agent)).toMatchObject({ role: 'partner_agent', partnerId: pantry.id })
    })

    test('may not change a member of another partner (Forbidden)', async () => {
      const agent = await world.member('partner_agent', { partnerId: shelter.id })
      await failureOf(updateMember.execute(partnerAdmin, agent.memberId, { role: 'volunteer' }), ForbiddenError)
      await failureOf(updateMember.execute(partnerAdmin, agent.memberId, { role: 'volunteer', partnerId: pantry.id }), ForbiddenError)
      expect(await stored(agent)).toMatchObject({ role: 'partner_agent', partnerId: shelter.id })
    })

    test('may not change staff, an org_admin or another partner_admin of its partner (Forbidden)', async () => {
      const staff = await world.member('staff')
      const otherPartnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
      await failureOf(updateMember.execute(partnerAdmin, staff.memberId, { role: 'staff' }), ForbiddenError)
      await failureOf(updateMember.execute(partnerAdmin, world.admin.memberId, { role: 'org_admin' }), ForbiddenError)
      await failureOf(updateMember.execute(partnerAdmin, otherPartnerAdmin.memberId, { role: 'partner_agent' }), ForbiddenError)
      expect((await stored(otherPartnerAdmin)).role).toBe('partner_admin')
    })

    test('may not move its own agent out of its reach: to another partner or to a role it does not manage (Forbidden)', async () => {
      const agent = await world.member('partner_agent', { partnerId: pantry.id })
      await failureOf(updateMember.execute(partnerAdmin, agent.memberId, { role: 'partner_agent', partnerId: shelter.id }), ForbiddenError)
      await failureOf(updateMember.execute(partnerAdmin, agent.memberId, { role: 'partner_admin' }), ForbiddenError)
      await failureOf(updateMember.execute(partnerAdmin, agent.memberId, { role: 'org_admin' }), ForbiddenError)
      expect(await stored(agent)).toMatchObject({ role: 'partner_agent', partnerId: pantry.id })
    })

    test('adds only the profiles it holds itself (Forbidden otherwise, nothing changes); may keep or remove the others', async () => {
      const agent = await world.member('partner_agent', { partnerId: pantry.id, profiles: ['duplicate_resolver'] })
      for (const profile of ['pii_reader', 'sms_communicator'] as const) {
        await failureOf(
          updateMember.execute(partnerAdmin, agent.memberId, { role: 'partner_agent', profiles: ['duplicate_resolver', profile] }),
          ForbiddenError,
        )
      }
      expect((await stored(agent)).profiles).toEqual(['duplicate_resolver'])
      // What an org_admin gave stays through other changes, and may be taken away.
      await updateMember.execute(partnerAdmin, agent.memberId, { role: 'volunteer', profiles: ['duplicate_resolver'] })
      await updateMember.execute(partnerAdmin, agent.memberId, { role: 'volunteer', profiles: [] })
      expect((await stored(agent)).profiles).toEqual([])
      await failureOf(
        updateMember.execute(partnerAdmin, agent.memberId, { role: 'volunteer', profiles: ['duplicate_resolver'] }),
        ForbiddenError,
      )
      const holder = await world.member('partner_admin', { partnerId: pantry.id, profiles: ['intake_staff'] })
      await updateMember.execute(holder, agent.memberId, { role: 'volunteer', profiles: ['intake_staff'] })
      expect((await stored(agent)).profiles).toEqual(['intake_staff'])
    })

    test('may not promote itself (Forbidden)', async () => {
      await failureOf(updateMember.execute(partnerAdmin, partnerAdmin.memberId, { role: 'org_admin' }), ForbiddenError)
      expect((await stored(partnerAdmin)).role).toBe('partner_admin')
    })
  })

  test('staff, partner_agent and volunteer may not update members (Forbidden)', async () => {
    const target = await world.member('volunteer', { partnerId: pantry.id })
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, {
        partnerId: role === 'staff' ? undefined : pantry.id,
        profiles: ['needs_processor', 'intake_staff'],
      })
      await failureOf(updateMember.execute(actor, target.memberId, { role: 'partner_agent' }), ForbiddenError)
    }
    expect((await stored(target)).role).toBe('volunteer')
  })

  test("answers Member not found for another organization's member and an unknown id", async () => {
    const other = await world.otherOrganization()
    const theirs = await other.member('staff')
    const error = await failureOf(updateMember.execute(world.admin, theirs.memberId, { role: 'org_admin' }), NotFoundError)
    expect(error.message).toBe('Member not found')
    expect((await stored(theirs, other)).role).toBe('staff')
    await failureOf(updateMember.execute(world.admin, crypto.randomUUID(), { role: 'staff' }), NotFoundError)
  })
})
