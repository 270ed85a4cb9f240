import { beforeEach, describe, expect, test } from 'bun:test'
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, tokenIn, type MailWorld } from '../mail-world'

const DAY = 24 * 3_600_000
let world: MailWorld
beforeEach(async () => {
  world = await createMailWorld()
})

async function invite(email = 'new@example.org') {
  const member = await world.useCases.members.invite.execute(world.admin, { email, role: 'staff' })
  await world.dispatch()
  return member
}

const invitationsTo = (email: string) => world.fallbackMail().filter((m) => m.to === email)

describe('ResendInvitation', () => {
  test('an invitation that expired can be replaced: the new link works, the old one does not', async () => {
    const member = await invite()
    const first = tokenIn(invitationsTo('new@example.org')[0]!)
    world.clock.advance(8 * DAY)
    await world.useCases.members.resend.execute(world.admin, member.id)
    await world.dispatch()
    const emails = invitationsTo('new@example.org')
    expect(emails).toHaveLength(2)
    await failureOf(world.useCases.auth.acceptInvite.execute({ token: first, password: 'a long enough password' }), InvalidError)
    const tokens = await world.useCases.auth.acceptInvite.execute({ token: tokenIn(emails[1]!), password: 'a long enough password' })
    expect(tokens.tokenType).toBe('Bearer')
  })

  test('links the app gives point where it says, when the organization lists its origin', async () => {
    const member = await invite()
    await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.net'] })
    await world.useCases.members.resend.execute(world.admin, member.id, 'https://app.example.net')
    await world.dispatch()
    expect(invitationsTo('new@example.org')[1]!.text).toContain('https://app.example.net/accept-invite?token=')
  })

  test('an app the organization does not list is Invalid at /appUrl, and nothing is sent', async () => {
    const member = await invite()
    for (const appUrl of ['https://evil.example', 'javascript:alert(1)']) {
      expect(pathsOf(await failureOf(world.useCases.members.resend.execute(world.admin, member.id, appUrl), InvalidError))).toEqual([
        '/appUrl',
      ])
    }
    await world.dispatch()
    expect(invitationsTo('new@example.org')).toHaveLength(1)
  })

  test('a member who already accepted cannot be invited again (Conflict), and nothing is sent', async () => {
    const member = await invite()
    await world.useCases.auth.acceptInvite.execute({
      token: tokenIn(invitationsTo('new@example.org')[0]!),
      password: 'a long enough password',
    })
    await failureOf(world.useCases.members.resend.execute(world.admin, member.id), ConflictError)
    await world.dispatch()
    expect(invitationsTo('new@example.org')).toHaveLength(1)
  })

  test("another organization's member is Member not found; staff may not resend (Forbidden)", async () => {
    const member = await invite()
    const other = await world.otherOrganization()
    expect((await failureOf(world.useCases.members.resend.execute(other.admin, member.id), NotFoundError)).message).toBe('Member not found')
    await failureOf(world.useCases.members.resend.execute(await world.member('staff'), member.id), ForbiddenError)
  })
})
