import { beforeEach, describe, expect, test } from 'bun:test'
import type { Login } from '../../../src/application/auth/login'
import type { SetMemberPassword } from '../../../src/application/members/set-member-password'
import type { Actor } from '../../../src/domain/auth/actor'
import { InvalidError, NotFoundError, UnauthorizedError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

const NEW_PASSWORD = 'a brand new passphrase'

let world: World
let setPassword: SetMemberPassword
let login: Login
beforeEach(async () => {
  world = await createWorld()
  setPassword = world.useCases.operations.setMemberPassword
  login = world.useCases.auth.login
})

const memberOf = async (actor: Actor, w = world) => (await w.repositories.members.findById(actor.organizationId, actor.memberId))!
const slugOf = async (w: World) => (await w.repositories.organizations.findById(w.organizationId))!.slug

describe('SetMemberPassword', () => {
  test('sets a new password: it opens the account and the old one no longer does', async () => {
    const { email } = await memberOf(world.admin)
    await setPassword.execute({ email, password: NEW_PASSWORD })
    expect((await login.execute({ email, password: NEW_PASSWORD })).tokenType).toBe('Bearer')
    await failureOf(login.execute({ email, password: TEST_PASSWORD }), UnauthorizedError)
  })

  test('confirms a member who was not confirmed, so it can log in', async () => {
    const invited = await world.member('staff', { isConfirmed: false })
    const { email } = await memberOf(invited)
    await setPassword.execute({ email, password: NEW_PASSWORD })
    expect((await memberOf(invited)).isConfirmed).toBe(true)
    expect(
      world.container.get(PORTS.accessTokens).verify((await login.execute({ email, password: NEW_PASSWORD })).accessToken),
    ).toMatchObject({
      memberId: invited.memberId,
    })
  })

  test('finds the member by email in any case', async () => {
    const { email } = await memberOf(world.admin)
    await setPassword.execute({ email: email.toUpperCase(), password: NEW_PASSWORD })
    expect((await login.execute({ email, password: NEW_PASSWORD })).tokenType).toBe('Bearer')
  })

  test('refuses a password under 12 characters and changes nothing', async () => {
    const { email } = await memberOf(world.admin)
    expect(pathsOf(await failureOf(setPassword.execute({ email, password: 'elevenchars' }), InvalidError))).toEqual(['/password'])
    expect((await login.execute({ email, password: TEST_PASSWORD })).tokenType).toBe('Bearer')
  })

  test('answers Member not found for an unknown email', async () => {
    const error = await failureOf(setPassword.execute({ email: 'nobody@example.org', password: NEW_PASSWORD }), NotFoundError)
    expect(error.message).toBe('Member not found')
  })

  test('answers Member not found when the email is not in the organization named', async () => {
    const other = await world.otherOrganization()
    const { email } = await memberOf(world.admin)
    await failureOf(setPassword.execute({ email, password: NEW_PASSWORD, organizationSlug: await slugOf(other) }), NotFoundError)
  })

  describe('an email in several organizations', () => {
    test('needs the organization named', async () => {
      const other = await world.otherOrganization()
      await world.member('staff', { email: 'shared@example.org' })
      await other.member('staff', { email: 'shared@example.org' })
      await failureOf(setPassword.execute({ email: 'shared@example.org', password: NEW_PASSWORD }), InvalidError)
    })

    test('changes only the member of the organization named', async () => {
      const other = await world.otherOrganization()
      const ours = await world.member('staff', { email: 'shared@example.org', isConfirmed: false })
      const theirs = await other.member('staff', { email: 'shared@example.org', isConfirmed: false })
      await setPassword.execute({ email: 'shared@example.org', password: NEW_PASSWORD, organizationSlug: await slugOf(other) })
      expect((await memberOf(theirs, other)).isConfirmed).toBe(true)
      expect(await memberOf(ours)).toMatchObject({ isConfirmed: false })
      expect((await memberOf(ours)).passwordHash).toBeUndefined()
    })
  })
})
