import { beforeEach, describe, expect, test } from 'bun:test'
import type { GetProfile, UpdateProfile } from '../../../src/application/profile/profile'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Permission } from '../../../src/domain/auth/permissions'
import { InvalidError, NotFoundError } from '../../../src/domain/errors'
import { ROLES } from '../../../src/domain/auth/roles'
import { grantedTo } from '../../support/permissions'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

/** What a staff member may do: the grid's (tests/support/permissions.ts), not computed from the table under test. */
const STAFF_PERMISSIONS = grantedTo('staff')
/** The profile with its permissions sorted, as the grid's are (their order is not the contract's). */
const sorted = <T extends { permissions: Permission[] }>(profile: T): T => ({ ...profile, permissions: [...profile.permissions].sort() })

let world: World
let getProfile: GetProfile
let updateProfile: UpdateProfile
let me: Actor
beforeEach(async () => {
  world = await createWorld()
  getProfile = world.useCases.members.getProfile
  updateProfile = world.useCases.members.updateProfile
  me = await world.member('staff', { email: 'me@example.org', fullName: 'Ana Lopez', phone: '+15550000001', passwordHash: 'secret-hash' })
})

const stored = async (actor = me) => (await world.repositories.members.findById(actor.organizationId, actor.memberId))!

describe('GetProfile', () => {
  test("answers the caller's own id, email, name, phone, role, profiles and permissions, and nothing else", async () => {
    expect(sorted(await getProfile.execute(me))).toEqual({
      id: me.memberId,
      email: 'me@example.org',
      fullName: 'Ana Lopez',
      phone: '+15550000001',
      role: 'staff',
      profiles: [],
      permissions: STAFF_PERMISSIONS,
      language: 'en',
      notifications: { newNeeds: false, assignedToMe: true, dailyDigest: true },
    })
  })

  test('leaves out a name, phone and partner the member does not have', async () => {
    const bare = await world.member('staff', { email: 'bare@example.org' })
    expect(sorted(await getProfile.execute(bare))).toEqual({
      id: bare.memberId,
      email: 'bare@example.org',
      role: 'staff',
      profiles: [],
      permissions: STAFF_PERMISSIONS,
      language: 'en',
      notifications: { newNeeds: false, assignedToMe: true, dailyDigest: true },
    })
  })

  test("names a partner role's partner, and the permissions its role and profiles give it (the table's, no more)", async () => {
    const partner = await world.partner()
    const agent = await world.member('partner_agent', { partnerId: partner.id, profiles: ['sms_communicator'] })
    const profile = await getProfile.execute(agent)
    expect(profile).toMatchObject({ role: 'partner_agent', partnerId: partner.id, profiles: ['sms_communicator'] })
    expect(profile.permissions).toContain('needs:send-sms')
    expect(profile.permissions).toContain('needs:update')
    expect(profile.permissions).not.toContain('constituents:merge')
    expect(profile.permissions).not.toContain('members:list')
    const volunteer = await world.member('volunteer', { partnerId: partner.id })
    expect(sorted(await getProfile.execute(volunteer)).permissions).toEqual(grantedTo('volunteer'))
  })

  test('every role may read its own profile', async () => {
    const partner = await world.partner()
    for (const role of ROLES) {
      const actor = await world.member(role, role === 'org_admin' || role === 'staff' ? {} : { partnerId: partner.id })
      expect((await getProfile.execute(actor)).id).toBe(actor.memberId)
    }
  })

  test('answers Member not found when the member is gone from the organization', async () => {
    const ghost: Actor = { ...me, memberId: crypto.randomUUID() }
    await failureOf(getProfile.execute(ghost), NotFoundError)
  })
})

describe('notifications and language', () => {
  test('follow the role until chosen: new needs on for org_admin and partner_admin only', async () => {
    const partner = await world.partner()
    const expected = { org_admin: true, partner_admin: true, staff: false, partner_agent: false, volunteer: false }
    for (const role of ROLES) {
      const actor = await world.member(role, role === 'org_admin' || role === 'staff' ? {} : { partnerId: partner.id })
      expect([role, (await getProfile.execute(actor)).notifications.newNeeds]).toEqual([role, expected[role]])
    }
  })

  test('a change names the kinds it changes and keeps the others; the language is en or es', async () => {
    const changed = await updateProfile.execute(me, { notifications: { newNeeds: true }, language: 'es' })
    expect(changed).toMatchObject({ language: 'es', notifications: { newNeeds: true, assignedToMe: true, dailyDigest: true } })
    await updateProfile.execute(me, { notifications: { dailyDigest: false } })
    expect((await getProfile.execute(me)).notifications).toEqual({ newNeeds: true, assignedToMe: true, dailyDigest: false })
    expect((await stored()).language).toBe('es')
  })

  test('refuses another language, an unknown kind and a choice that is not true or false, at their paths', async () => {
    const failure = await failureOf(
      updateProfile.execute(me, { language: 'fr', notifications: { newNeeds: 'yes', sms: true } } as never),
      InvalidError,
    )
    expect(failure.errors.map((e) => e.path).sort()).toEqual(['/language', '/notifications/newNeeds', '/notifications/sms'])
    expect((await stored()).language).toBeUndefined()
  })
})

describe('UpdateProfile', () => {
  test('sets the name, trimmed, and keeps the phone when it is left out', async () => {
    const profile = await updateProfile.execute(me, { fullName: '  Ana María Lopez  ' })
    expect(sorted(profile)).toEqual({
      id: me.memberId,
      email: 'me@example.org',
      fullName: 'Ana María Lopez',
      phone: '+15550000001',
      role: 'staff',
      profiles: [],
      permissions: STAFF_PERMISSIONS,
      language: 'en',
      notifications: { newNeeds: false, assignedToMe: true, dailyDigest: true },
    })
    expect(await stored()).toMatchObject({ fullName: 'Ana María Lopez', phone: '+15550000001' })
  })

  test('replaces the phone with a new E.164 number', async () => {
    expect((await updateProfile.execute(me, { fullName: 'Ana', phone: '+442071234567' })).phone).toBe('+442071234567')
    expect((await stored()).phone).toBe('+442071234567')
  })

  test('phone null clears it', async () => {
    const profile = await updateProfile.execute(me, { fullName: 'Ana', phone: null })
    expect(profile).not.toHaveProperty('phone')
    expect((await stored()).phone).toBeUndefined()
  })

  test('an empty or blank name is Invalid at /fullName and nothing changes', async () => {
    for (const fullName of ['', '   ']) {
      expect(pathsOf(await failureOf(updateProfile.execute(me, { fullName }), InvalidError))).toEqual(['/fullName'])
    }
    expect((await stored()).fullName).toBe('Ana Lopez')
  })

  test('a phone that is no number of the organization’s country, nor international, is Invalid at /phone and nothing changes', async () => {
    for (const phone of ['555-4567', '5551234', '+0123456', '+1 555 123 45678', '+1234567890123456', '1-800-FLOWERS']) {
      expect(pathsOf(await failureOf(updateProfile.execute(me, { fullName: 'Changed', phone }), InvalidError))).toEqual(['/phone'])
    }
    expect(await stored()).toMatchObject({ fullName: 'Ana Lopez', phone: '+15550000001' })
  })

  test('a phone typed as a national number is kept in E.164', async () => {
    expect((await updateProfile.execute(me, { phone: '(503) 555-0142' })).phone).toBe('+15035550142')
    expect(await stored()).toMatchObject({ phone: '+15035550142' })
  })

  test('changes only the caller: role, email, password and other members stay', async () => {
    const colleague = await world.member('staff', { fullName: 'Colleague' })
    await updateProfile.execute(me, { fullName: 'New Name', phone: '+15550000009' })
    expect(await stored()).toMatchObject({ role: 'staff', email: 'me@example.org', passwordHash: 'secret-hash', isConfirmed: true })
    expect((await stored(colleague)).fullName).toBe('Colleague')
  })

  test('every role may update its own profile', async () => {
    const partner = await world.partner()
    for (const role of ROLES) {
      const actor = await world.member(role, role === 'org_admin' || role === 'staff' ? {} : { partnerId: partner.id })
      expect((await updateProfile.execute(actor, { fullName: `A ${role}` })).fullName).toBe(`A ${role}`)
    }
  })
})
