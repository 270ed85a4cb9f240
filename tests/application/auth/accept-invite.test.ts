import { beforeEach, describe, expect, test } from 'bun:test'
import type { AcceptInvite } from '../../../src/application/auth/accept-invite'
import type { Login } from '../../../src/application/auth/login'
import { InvalidError, UnauthorizedError } from '../../../src/domain/errors'
import { INVITATION_LIFETIME_MS } from '../../../src/domain/members/invitation'
import type { MemberView } from '../../../src/domain/members/member'
import { PORTS } from '../../../src/main/container'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, tokenIn, type MailWorld } from '../mail-world'

const PASSWORD = 'a long enough passphrase'
const MINUTE = 60_000

let world: MailWorld
let acceptInvite: AcceptInvite
let login: Login
let invited: MemberView
let token: string
beforeEach(async () => {
  world = await createMailWorld()
  acceptInvite = world.useCases.auth.acceptInvite
  login = world.useCases.auth.login
  invited = await world.useCases.members.invite.execute(world.admin, { email: 'Invited@Example.org', role: 'staff' })
  await world.dispatch()
  token = tokenIn(world.fallbackMail().find((m) => m.to === 'invited@example.org')!)
})

const storedInvited = async () => (await world.repositories.members.findById(world.organizationId, invited.id))!

describe('AcceptInvite', () => {
  test('with the emailed token answers a Bearer token pair for the invited member', async () => {
    const tokens = await acceptInvite.execute({ token, password: PASSWORD })
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 })
    expect(world.container.get(PORTS.accessTokens).verify(tokens.accessToken)).toMatchObject({
      memberId: invited.id,
      organizationId: world.organizationId,
    })
    const actor = await world.useCases.auth.authenticate.execute(tokens.accessToken)
    expect(actor).toMatchObject({ memberId: invited.id, role: 'staff' })
  })

  test('confirms the member and sets the password: Login then works with it', async () => {
    await failureOf(login.execute({ email: 'invited@example.org', password: PASSWORD }), UnauthorizedError)
    await acceptInvite.execute({ token, password: PASSWORD })
    expect((await storedInvited()).isConfirmed).toBe(true)
    const tokens = await login.execute({ email: 'invited@example.org', password: PASSWORD })
    expect(world.container.get(PORTS.accessTokens).verify(tokens.accessToken)).toMatchObject({ memberId: invited.id })
  })

  test('the stored password is a hash, not the password', async () => {
    await acceptInvite.execute({ token, password: PASSWORD })
    const { passwordHash } = await storedInvited()
    expect(passwordHash).toBeString()
    expect(passwordHash).not.toContain(PASSWORD)
  })

  test('works once: the second use is Invalid at /token and the first password stays', async () => {
    await acceptInvite.execute({ token, password: PASSWORD })
    const error = await failureOf(acceptInvite.execute({ token, password: 'an attacker passphrase' }), InvalidError)
    expect(pathsOf(error)).toEqual(['/token'])
    await login.execute({ email: 'invited@example.org', password: PASSWORD })
    await failureOf(login.execute({ email: 'invited@example.org', password: 'an attacker passphrase' }), UnauthorizedError)
  })

  test('two uses at the same time: exactly one wins, the other is Invalid at /token', async () => {
    const results = await Promise.allSettled([
      acceptInvite.execute({ token, password: PASSWORD }),
      acceptInvite.execute({ token, password: 'an attacker passphrase' }),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const [rejected] = results.filter((r) => r.status === 'rejected')
    expect((rejected as PromiseRejectedResult).reason).toBeInstanceOf(InvalidError)
  })

  test('an unknown token is Invalid at /token', async () => {
    const error = await failureOf(acceptInvite.execute({ token: 'not-a-token-anyone-was-sent', password: PASSWORD }), InvalidError)
    expect(pathsOf(error)).toEqual(['/token'])
  })

  test('the digest stored in place of the token does not work as a token', async () => {
    const digest = world.container.get(PORTS.secrets).digest(token)
    await failureOf(acceptInvite.execute({ token: digest, password: PASSWORD }), InvalidError)
  })

  describe('expiry after 7 days', () => {
    test('works a minute before the 7 days are up', async () => {
      world.clock.advance(INVITATION_LIFETIME_MS - MINUTE)
      expect((await acceptInvite.execute({ token, password: PASSWORD })).tokenType).toBe('Bearer')
    })

    test('is Invalid at /token once the 7 days are up, and the member stays unconfirmed', async () => {
      world.clock.advance(INVITATION_LIFETIME_MS)
      expect(pathsOf(await failureOf(acceptInvite.execute({ token, password: PASSWORD }), InvalidError))).toEqual(['/token'])
      world.clock.advance(MINUTE)
      await failureOf(acceptInvite.execute({ token, password: PASSWORD }), InvalidError)
      expect(await storedInvited()).toMatchObject({ isConfirmed: false })
      expect((await storedInvited()).passwordHash).toBeUndefined()
    })
  })

  test('a password under 12 characters is Invalid at /password and leaves the token usable', async () => {
    const error = await failureOf(acceptInvite.execute({ token, password: 'elevenchars' }), InvalidError)
    expect(pathsOf(error)).toEqual(['/password'])
    expect((await storedInvited()).isConfirmed).toBe(false)
    expect((await acceptInvite.execute({ token, password: PASSWORD })).tokenType).toBe('Bearer')
  })

  test('each invitation confirms only its own member', async () => {
    const other = await world.useCases.members.invite.execute(world.admin, { email: 'second@example.org', role: 'staff' })
    await acceptInvite.execute({ token, password: PASSWORD })
    expect((await world.repositories.members.findById(world.organizationId, other.id))!.isConfirmed).toBe(false)
  })
})
