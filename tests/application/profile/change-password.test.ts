import { beforeEach, describe, expect, test } from 'bun:test'
import { InvalidError, UnauthorizedError } from '../../../src/domain/errors'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

// docs/api/access.md "Members and invitations": a member chooses a new password, proving the current one.
let world: World
let email: string
beforeEach(async () => {
  world = await createWorld()
  email = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!.email
})

const NEW_PASSWORD = 'a password of my own choosing'
const change = (currentPassword = TEST_PASSWORD, newPassword = NEW_PASSWORD) =>
  world.useCases.members.changePassword.execute(world.admin, { currentPassword, newPassword })
const logIn = (password: string) => world.useCases.auth.login.execute({ email, password })

describe('ChangePassword', () => {
  test('the new password logs in, the old one no longer does', async () => {
    await change()
    expect((await logIn(NEW_PASSWORD)).accessToken).toBeTruthy()
    await failureOf(logIn(TEST_PASSWORD), UnauthorizedError)
  })

  test('ends every session of the member, the one it was asked in too', async () => {
    const sessions = [await logIn(TEST_PASSWORD), await logIn(TEST_PASSWORD)]
    await change()
    for (const session of sessions) await failureOf(world.useCases.auth.refresh.execute(session.refreshToken), UnauthorizedError)
  })

  test('is in the audit trail as change_password of the member, naming the field only', async () => {
    await change()
    const events = (await world.useCases.audit.list.execute(world.admin, { action: 'change_password' }, { page: 1, limit: 10 })).items
    expect(events.map((e) => ({ memberId: e.memberId, recordId: e.recordId, fields: e.fields }))).toEqual([
      { memberId: world.admin.memberId, recordId: world.admin.memberId, fields: ['password'] },
    ])
    expect(JSON.stringify(events)).not.toContain(NEW_PASSWORD)
  })

  test.each([
    ['a wrong current password', 'not my password at all', NEW_PASSWORD, '/currentPassword'],
    ['a new password under 12 characters', TEST_PASSWORD, 'short', '/newPassword'],
    ['the current password again', TEST_PASSWORD, TEST_PASSWORD, '/newPassword'],
  ])('%s is refused naming the field, and the password stays', async (_name, current, next, path) => {
    expect(pathsOf(await failureOf(change(current, next), InvalidError))).toEqual([path])
    expect((await logIn(TEST_PASSWORD)).accessToken).toBeTruthy()
  })
})
