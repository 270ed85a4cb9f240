import { beforeEach, describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import { issueLinkToken } from '../../../src/application/members/one-time-links'
import { ConflictError, ForbiddenError, InvalidError, UnauthorizedError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/access.md "Members and invitations": a departing member's access ends at once; the record stays.
let world: World
let passwordHash: string
beforeEach(async () => {
  world = await createWorld()
  passwordHash = await world.container.get(PORTS.passwords).hash(TEST_PASSWORD)
})

const deactivate = (actor: Actor, member: Actor) => world.useCases.members.update.execute(actor, member.memberId, { active: false })
const reactivate = (actor: Actor, member: Actor) => world.useCases.members.update.execute(actor, member.memberId, { active: true })
const stored = async (member: Actor) => (await world.repositories.members.findById(member.organizationId, member.memberId))!

/** A member who chose a password, logged in: its token pair. */
async function loggedIn(role: Parameters<World['member']>[0], options: Parameters<World['member']>[1] = {}) {
  const member = await world.member(role, { passwordHash, ...options })
  const { email } = await stored(member)
  const tokens = await world.useCases.auth.login.execute({ email, password: TEST_PASSWORD }, '203.0.113.9')
  return { member, email, tokens }
}

describe('deactivating a member', () => {
  test('ends its access token, its sessions and its login at once, as a wrong password is refused; the record stays', async () => {
    const { member, email, tokens } = await loggedIn('staff')
    await world.useCases.auth.authenticate.execute(tokens.accessToken)

    const view = await deactivate(world.admin, member)

    expect(view).toMatchObject({ id: member.memberId, active: false })
    expect((await stored(member)).deactivatedAt).toEqual(world.clock.now())
    expect((await failureOf(world.useCases.auth.authenticate.execute(tokens.accessToken), UnauthorizedError)).message).toBeTruthy()
    await failureOf(world.useCases.auth.refresh.execute(tokens.refreshToken), UnauthorizedError)
    const refused = await failureOf(world.useCases.auth.login.execute({ email, password: TEST_PASSWORD }, '203.0.113.9'), UnauthorizedError)
    const wrong = await failureOf(
      world.useCases.auth.login.execute({ email, password: 'not the password' }, '203.0.113.9'),
      UnauthorizedError,
    )
    expect(refused.message).toBe(wrong.message)
    expect(
      (await world.useCases.members.list.execute(world.admin, { page: 1, limit: 50 })).items.find((m) => m.id === member.memberId),
    ).toMatchObject({ active: false })
  })

  test('reactivation restores access with the same password, and both are audited without values', async () => {
    const { member, email } = await loggedIn('staff')
    await deactivate(world.admin, member)
    expect(await reactivate(world.admin, member)).toMatchObject({ active: true })

    expect((await stored(member)).deactivatedAt).toBeUndefined()
    const tokens = await world.useCases.auth.login.execute({ email, password: TEST_PASSWORD }, '203.0.113.9')
    expect((await world.useCases.auth.authenticate.execute(tokens.accessToken)).memberId).toBe(member.memberId)
    const trail = await world.repositories.auditEvents.list(world.organizationId, { recordId: member.memberId }, { page: 1, limit: 10 })
    expect(
      trail.items
        .map((e) => e.action)
        .filter((a) => a === 'deactivate' || a === 'reactivate')
        .sort(),
    ).toEqual(['deactivate', 'reactivate'])
    for (const event of trail.items) expect(event).not.toHaveProperty('fields.deactivatedAt')
  })

  test('a member cannot deactivate itself, nor two admins each other: one active org_admin always stays (409, nothing changes)', async () => {
    await failureOf(deactivate(world.admin, world.admin), ConflictError)
    const other = await world.member('org_admin', { passwordHash })
    await deactivate(world.admin, other)
    // `other` acted before its deactivation reached it (two admins at once): the admin is the last active one.
    await failureOf(deactivate(other, world.admin), ConflictError)
    expect((await stored(world.admin)).deactivatedAt).toBeUndefined()
    expect(await world.repositories.members.countSigningInByRole(world.organizationId, 'org_admin')).toBe(1)
  })

  test('a partner_admin deactivates its own partner’s members only', async () => {
    const pantry = await world.partner({ name: 'Pantry' })
    const shelter = await world.partner({ name: 'Shelter' })
    const partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id, passwordHash })
    const own = await world.member('partner_agent', { partnerId: pantry.id })
    const theirs = await world.member('partner_agent', { partnerId: shelter.id })

    expect(await deactivate(partnerAdmin, own)).toMatchObject({ active: false })
    await failureOf(deactivate(partnerAdmin, theirs), ForbiddenError)
    await failureOf(deactivate(partnerAdmin, world.admin), ForbiddenError)
    expect((await stored(theirs)).deactivatedAt).toBeUndefined()
  })

  test('voids the member’s unused links, which stay void after reactivation', async () => {
    const invited = await world.member('staff', { isConfirmed: false })
    const token = await world.container
      .get(PORTS.unitOfWork)
      .run(async (r) =>
        issueLinkToken(
          r,
          { secrets: world.container.get(PORTS.secrets), ids: world.container.get(PORTS.ids) },
          await stored(invited),
          undefined,
          world.clock.now(),
          3_600_000,
        ),
      )
    await deactivate(world.admin, invited)
    await reactivate(world.admin, invited)
    await failureOf(world.useCases.auth.acceptInvite.execute({ token, password: TEST_PASSWORD }), InvalidError)
    expect((await stored(invited)).isConfirmed).toBe(false)
  })

  test('active lists filter by it; a partner_admin’s list stays its partner’s', async () => {
    const leaving = await world.member('staff')
    const staying = await world.member('volunteer')
    await deactivate(world.admin, leaving)
    const ids = async (active: boolean) =>
      (await world.useCases.members.list.execute(world.admin, { page: 1, limit: 50 }, { active })).items.map((m) => m.id)
    expect(await ids(false)).toEqual([leaving.memberId])
    expect(await ids(true)).toContain(staying.memberId)
    expect(await ids(true)).not.toContain(leaving.memberId)
  })
})
