import { beforeEach, describe, expect, test } from 'bun:test'
import { InvalidError, UnauthorizedError } from '../../../src/domain/errors'
import type { EmailMessage } from '../../../src/domain/messaging/email'
import { PASSWORD_RESET_LIFETIME_MS } from '../../../src/domain/members/invitation'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, PUBLIC_BASE_URL, tokenIn, type MailWorld } from '../mail-world'

const OLD_PASSWORD = 'the first long passphrase'
const NEW_PASSWORD = 'a brand new long passphrase'

let world: MailWorld
let email: string

/** The token in the newest reset email to `to`. */
async function resetTokenFor(to: string): Promise<string> {
  await world.dispatch()
  const message = world
    .fallbackMail()
    .filter((m) => m.to === to && m.subject.startsWith('Choose a new password'))
    .at(-1)
  if (!message) throw new Error(`no reset email to ${to}`)
  return resetTokenIn(message)
}

function resetTokenIn(message: EmailMessage): string {
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(message.text)?.[0]
  if (!link) throw new Error(`no reset link in: ${message.text}`)
  return new URL(link).searchParams.get('token')!
}

beforeEach(async () => {
  world = await createMailWorld()
  const invited = await world.useCases.members.invite.execute(world.admin, { email: 'pat@example.org', role: 'staff' })
  await world.dispatch()
  await world.useCases.auth.acceptInvite.execute({
    token: tokenIn(world.fallbackMail().find((m) => m.to === invited.email)!),
    password: OLD_PASSWORD,
  })
  email = invited.email
})

const login = (password: string) => world.useCases.auth.login.execute({ email, password })

describe('RequestPasswordReset and ResetPassword', () => {
  test('the emailed link sets a new password once, ends the other sessions and starts a new one', async () => {
    const before = await login(OLD_PASSWORD)
    await world.useCases.auth.requestPasswordReset.execute({ email: 'PAT@example.org' })
    const token = await resetTokenFor(email)

    const after = await world.useCases.auth.resetPassword.execute({ token, password: NEW_PASSWORD })
    await failureOf(world.useCases.auth.authenticate.execute(before.accessToken), UnauthorizedError)
    await failureOf(world.useCases.auth.refresh.execute(before.refreshToken), UnauthorizedError)
    expect((await world.useCases.auth.authenticate.execute(after.accessToken)).organizationId).toBe(world.organizationId)
    await failureOf(login(OLD_PASSWORD), UnauthorizedError)
    await login(NEW_PASSWORD)

    const again = await failureOf(world.useCases.auth.resetPassword.execute({ token, password: 'yet another passphrase' }), InvalidError)
    expect(pathsOf(again)).toEqual(['/token'])
    await login(NEW_PASSWORD)
  })

  test('the link is always on PUBLIC_BASE_URL: neither the caller nor the organization settings choose another', async () => {
    await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
    // What an old client, or a caller that passes anything through, would hand the use case.
    await world.useCases.auth.requestPasswordReset.execute({ email, appUrl: 'https://app.example.org' } as never)
    await world.useCases.auth.requestPasswordReset.execute({ email, appUrl: 'https://evil.example/steal' } as never)
    await world.dispatch()
    const links = world
      .fallbackMail()
      .filter((m) => m.to === email && m.subject.startsWith('Choose a new password'))
      .map((m) => /\S+\/reset-password\?token=\S+/.exec(m.text)![0])
    expect(links).toHaveLength(2)
    for (const link of links) expect(`${new URL(link).origin}${new URL(link).pathname}`).toBe(`${PUBLIC_BASE_URL}/reset-password`)
  })

  test('an unknown email sends nothing and says nothing different', async () => {
    const sent = world.fallbackMail().length
    expect(await world.useCases.auth.requestPasswordReset.execute({ email: 'nobody@example.org' })).toBeUndefined()
    await world.dispatch()
    expect(world.fallbackMail()).toHaveLength(sent)
  })

  test('a link expires after an hour', async () => {
    await world.useCases.auth.requestPasswordReset.execute({ email })
    const token = await resetTokenFor(email)
    world.clock.advance(PASSWORD_RESET_LIFETIME_MS + 1)
    expect(pathsOf(await failureOf(world.useCases.auth.resetPassword.execute({ token, password: NEW_PASSWORD }), InvalidError))).toEqual([
      '/token',
    ])
    await login(OLD_PASSWORD)
  })

  test('a reset link cannot accept an invitation, nor an invitation link reset a password', async () => {
    await world.useCases.auth.requestPasswordReset.execute({ email })
    const resetToken = await resetTokenFor(email)
    const invited = await world.useCases.members.invite.execute(world.admin, { email: 'new@example.org', role: 'staff' })
    await world.dispatch()
    const inviteToken = tokenIn(world.fallbackMail().find((m) => m.to === invited.email)!)

    expect(
      pathsOf(await failureOf(world.useCases.auth.acceptInvite.execute({ token: resetToken, password: NEW_PASSWORD }), InvalidError)),
    ).toEqual(['/token'])
    expect(
      pathsOf(await failureOf(world.useCases.auth.resetPassword.execute({ token: inviteToken, password: NEW_PASSWORD }), InvalidError)),
    ).toEqual(['/token'])
    await login(OLD_PASSWORD)
  })

  test('a member who never accepted an invitation gets no reset link', async () => {
    const invited = await world.useCases.members.invite.execute(world.admin, { email: 'pending@example.org', role: 'staff' })
    await world.dispatch()
    const sent = world.fallbackMail().length
    await world.useCases.auth.requestPasswordReset.execute({ email: invited.email })
    await world.dispatch()
    expect(world.fallbackMail()).toHaveLength(sent)
  })

  test('a weak password or a malformed email is refused, nothing sent', async () => {
    expect(pathsOf(await failureOf(world.useCases.auth.requestPasswordReset.execute({ email: 'not an email' }), InvalidError))).toEqual([
      '/email',
    ])
    expect(pathsOf(await failureOf(world.useCases.auth.resetPassword.execute({ token: 'x', password: 'short' }), InvalidError))).toEqual([
      '/password',
    ])
  })
})
