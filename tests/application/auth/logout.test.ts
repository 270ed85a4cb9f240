import { beforeEach, describe, expect, test } from 'bun:test'
import type { Logout } from '../../../src/application/auth/logout'
import type { RefreshSession } from '../../../src/application/auth/refresh-session'
import { UnauthorizedError } from '../../../src/domain/errors'
import { PORTS } from '../../../src/main/container'
import { createWorld, TEST_PASSWORD, type World } from '../../support/world'
import { failureOf } from '../failure-of'

let world: World
let logout: Logout
let refresh: RefreshSession
beforeEach(async () => {
  world = await createWorld()
  logout = world.useCases.auth.logout
  refresh = world.useCases.auth.refresh
})

async function logIn(actor = world.admin) {
  const email = (await world.repositories.members.findById(actor.organizationId, actor.memberId))!.email
  return world.useCases.auth.login.execute({ email, password: TEST_PASSWORD })
}

describe('Logout', () => {
  test('revokes the refresh token', async () => {
    const tokens = await logIn()
    await logout.execute(world.admin, tokens.refreshToken)
    await failureOf(refresh.execute(tokens.refreshToken), UnauthorizedError)
  })

  test('revokes the tokens rotated from the same login', async () => {
    const first = await logIn()
    const second = await refresh.execute(first.refreshToken)
    await logout.execute(world.admin, first.refreshToken)
    await failureOf(refresh.execute(second.refreshToken), UnauthorizedError)
  })

  test("leaves the member's other sessions open", async () => {
    const ended = await logIn()
    const kept = await logIn()
    await logout.execute(world.admin, ended.refreshToken)
    expect((await refresh.execute(kept.refreshToken)).tokenType).toBe('Bearer')
  })

  test("cannot end another member's session", async () => {
    const passwordHash = await world.container.get(PORTS.passwords).hash(TEST_PASSWORD)
    const staff = await world.member('staff', { passwordHash })
    const theirs = await logIn(staff)
    await logout.execute(world.admin, theirs.refreshToken)
    expect((await refresh.execute(theirs.refreshToken)).tokenType).toBe('Bearer')
  })

  test('an unknown token is accepted and changes nothing', async () => {
    const tokens = await logIn()
    await logout.execute(world.admin, 'not-a-token-we-issued')
    expect((await refresh.execute(tokens.refreshToken)).tokenType).toBe('Bearer')
  })
})
