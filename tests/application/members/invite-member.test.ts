import { beforeEach, describe, expect, test } from 'bun:test'
import type { InviteMember } from '../../../src/application/members/invite-member'
import type { Actor } from '../../../src/domain/auth/actor'
import { ConflictError, ForbiddenError, InvalidError } from '../../../src/domain/errors'
import type { Partner } from '../../../src/domain/partners/partner'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, type MailWorld } from '../mail-world'
import { invitationSent, staffInput } from './invite-member-support'

let world: MailWorld
let invite: InviteMember
let pantry: Partner
beforeEach(async () => {
  world = await createMailWorld()
  invite = world.useCases.members.invite
  pantry = await world.partner({ name: 'Pantry' })
})

const memberCount = async (w = world) => (await w.repositories.members.list(w.organizationId, {}, { page: 1, limit: 100 })).total
const storedByEmail = (email: string) => world.repositories.members.findByEmail(world.organizationId, email)
const sentMail = () => invitationSent(world)

describe('InviteMember', () => {
  test('adds an unconfirmed member without a password and answers its view', async () => {
    const view = await invite.execute(world.admin, staffInput({ fullName: 'Ana Lopez', phone: '+15551234567', profiles: ['pii_reader'] }))
    expect(view).toEqual({
      id: expect.any(String),
      email: 'new.staff@example.org',
      fullName: 'Ana Lopez',
      role: 'staff',
      phone: '+15551234567',
      profiles: ['pii_reader'],
      isConfirmed: false,
      active: true,
    })
    const stored = await world.repositories.members.findById(world.organizationId, view.id)
    expect(stored).toMatchObject({
      email: 'new.staff@example.org',
      role: 'staff',
      isConfirmed: false,
      organizationId: world.organizationId,
    })
    expect(stored!.passwordHash).toBeUndefined()
  })

  test('stores the email trimmed and lower-cased', async () => {
    const view = await invite.execute(world.admin, staffInput({ email: '  Ana.Lopez@EXAMPLE.org ' }))
    expect(view.email).toBe('ana.lopez@example.org')
    expect((await storedByEmail('ana.lopez@example.org'))?.id).toBe(view.id)
  })

  test('collapses repeated profiles into one each', async () => {
    const view = await invite.execute(world.admin, staffInput({ profiles: ['pii_reader', 'intake_staff', 'pii_reader', 'intake_staff'] }))
    expect(view.profiles).toEqual(['pii_reader', 'intake_staff'])
    expect((await storedByEmail('new.staff@example.org'))!.profiles).toEqual(['pii_reader', 'intake_staff'])
  })

  test("gives a partner role its partner and answers the partner's name", async () => {
    const view = await invite.execute(world.admin, { email: 'agent@example.org', role: 'partner_agent', partnerId: pantry.id })
    expect(view).toMatchObject({ role: 'partner_agent', partnerId: pantry.id, partnerName: 'Pantry' })
    expect((await storedByEmail('agent@example.org'))!.partnerId).toBe(pantry.id)
  })

  describe('the email', () => {
    test('already in the organization, in any case, is a Conflict and nothing is added or sent', async () => {
      await invite.execute(world.admin, staffInput({ email: 'taken@example.org' }))
      await world.dispatch()
      const before = await memberCount()
      await failureOf(invite.execute(world.admin, staffInput({ email: 'TAKEN@example.org', role: 'org_admin' })), ConflictError)
      expect(await memberCount()).toBe(before)
      expect(await world.dispatch()).toBe(0)
    })

    test('two invitations of one email at the same time: one is added, the other is a Conflict', async () => {
      const results = await Promise.allSettled([
        invite.execute(world.admin, staffInput({ email: 'race@example.org' })),
        invite.execute(world.admin, staffInput({ email: 'Race@example.org', role: 'org_admin' })),
      ])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError)
      expect((await sentMail()).filter((m) => m.to === 'race@example.org')).toHaveLength(1)
    })

    test("of the organization's own admin is a Conflict", async () => {
      const admin = await world.repositories.members.findById(world.organizationId, world.admin.memberId)
      await failureOf(invite.execute(world.admin, staffInput({ email: admin!.email })), ConflictError)
    })

    test('held in another organization may be invited here', async () => {
      const other = await world.otherOrganization()
      await other.member('staff', { email: 'shared@example.org' })
      const view = await invite.execute(world.admin, staffInput({ email: 'shared@example.org' }))
      expect((await storedByEmail('shared@example.org'))?.id).toBe(view.id)
    })
  })

  describe('role and partner', () => {
    for (const role of ['partner_admin', 'partner_agent', 'volunteer'] as const) {
      test(`${role} without a partnerId is Invalid at /partnerId and adds no one`, async () => {
        const before = await memberCount()
        const error = await failureOf(invite.execute(world.admin, { email: 'p@example.org', role }), InvalidError)
        expect(pathsOf(error)).toEqual(['/partnerId'])
        expect(await memberCount()).toBe(before)
      })
    }

    for (const role of ['org_admin', 'staff'] as const) {
      test(`${role} with a partnerId is Invalid at /partnerId: it sees the whole organization`, async () => {
        const error = await failureOf(invite.execute(world.admin, { email: 'o@example.org', role, partnerId: pantry.id }), InvalidError)
        expect(pathsOf(error)).toEqual(['/partnerId'])
        expect(await storedByEmail('o@example.org')).toBeUndefined()
      })
    }

    test('an unknown partnerId is Invalid at /partnerId and nothing is added or sent', async () => {
      const error = await failureOf(
        invite.execute(world.admin, { email: 'p@example.org', role: 'partner_agent', partnerId: crypto.randomUUID() }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/partnerId'])
      expect(await storedByEmail('p@example.org')).toBeUndefined()
      expect(await world.dispatch()).toBe(0)
    })

    test("another organization's partner is Invalid at /partnerId", async () => {
      const other = await world.otherOrganization()
      const error = await failureOf(
        invite.execute(world.admin, { email: 'p@example.org', role: 'volunteer', partnerId: other.defaultPartner.id }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/partnerId'])
      expect(await storedByEmail('p@example.org')).toBeUndefined()
    })
  })

  describe('a partner_admin', () => {
    let partnerAdmin: Actor
    beforeEach(async () => {
      partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
    })

    for (const role of ['partner_agent', 'volunteer'] as const) {
      test(`may invite a ${role} of its own partner`, async () => {
        const view = await invite.execute(partnerAdmin, { email: `${role}@example.org`, role, partnerId: pantry.id })
        expect(view).toMatchObject({ role, partnerId: pantry.id, isConfirmed: false })
        expect((await sentMail()).map((m) => m.to)).toEqual([`${role}@example.org`])
      })
    }

    test('may not invite an agent or volunteer of another partner (Forbidden), and nothing is added or sent', async () => {
      for (const role of ['partner_agent', 'volunteer'] as const) {
        await failureOf(
          invite.execute(partnerAdmin, { email: `${role}@example.org`, role, partnerId: world.defaultPartner.id }),
          ForbiddenError,
        )
        expect(await storedByEmail(`${role}@example.org`)).toBeUndefined()
      }
      expect(await world.dispatch()).toBe(0)
    })

    test('may not invite another partner_admin, even of its own partner (Forbidden)', async () => {
      await failureOf(
        invite.execute(partnerAdmin, { email: 'pa@example.org', role: 'partner_admin', partnerId: pantry.id }),
        ForbiddenError,
      )
      expect(await storedByEmail('pa@example.org')).toBeUndefined()
    })

    test('grants only the profiles it holds itself: any other profile is Forbidden and nothing is added', async () => {
      const holder = await world.member('partner_admin', { partnerId: pantry.id, profiles: ['pii_reader'] })
      for (const profile of ['duplicate_resolver', 'sms_communicator', 'pii_reader'] as const) {
        const error = await failureOf(
          invite.execute(partnerAdmin, { email: 'a@example.org', role: 'partner_agent', partnerId: pantry.id, profiles: [profile] }),
          ForbiddenError,
        )
        expect(error.message).toContain(profile)
      }
      expect(await storedByEmail('a@example.org')).toBeUndefined()
      const view = await invite.execute(holder, {
        email: 'a@example.org',
        role: 'partner_agent',
        partnerId: pantry.id,
        profiles: ['pii_reader'],
      })
      expect(view.profiles).toEqual(['pii_reader'])
      await failureOf(
        invite.execute(holder, {
          email: 'b@example.org',
          role: 'volunteer',
          partnerId: pantry.id,
          profiles: ['pii_reader', 'duplicate_resolver'],
        }),
        ForbiddenError,
      )
      expect(await storedByEmail('b@example.org')).toBeUndefined()
    })

    test('may not invite staff or an org_admin (Forbidden)', async () => {
      for (const role of ['staff', 'org_admin'] as const) {
        await failureOf(invite.execute(partnerAdmin, { email: `${role}@example.org`, role }), ForbiddenError)
        expect(await storedByEmail(`${role}@example.org`)).toBeUndefined()
      }
    })
  })

  test('an org_admin grants every profile, held or not', async () => {
    const view = await invite.execute(world.admin, staffInput({ profiles: ['duplicate_resolver', 'sms_communicator', 'pii_reader'] }))
    expect(view.profiles).toEqual(['duplicate_resolver', 'sms_communicator', 'pii_reader'])
  })

  test('staff, partner_agent and volunteer may not invite anyone (Forbidden)', async () => {
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, {
        partnerId: role === 'staff' ? undefined : pantry.id,
        profiles: ['intake_staff', 'needs_processor'],
      })
      await failureOf(invite.execute(actor, { email: 'v@example.org', role: 'volunteer', partnerId: pantry.id }), ForbiddenError)
    }
    expect(await storedByEmail('v@example.org')).toBeUndefined()
    expect(await world.dispatch()).toBe(0)
  })
})
