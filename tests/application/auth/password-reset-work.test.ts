import { describe, expect, test } from 'bun:test'
import { PasswordResetLinks, RequestPasswordReset } from '../../../src/application/auth/password-reset'
import { createMailWorld, tokenIn, type MailWorld } from '../mail-world'

// docs/api/access.md "Tokens": a reset request does the same work whether the email is known, and one member is sent at
// most PASSWORD_RESET_MAILS_PER_HOUR links an hour.
const HOUR = 60 * 60_000

/** A confirmed member of the world with this email; answers the email as stored. */
async function confirmedMember(world: MailWorld, address: string): Promise<string> {
  const invited = await world.useCases.members.invite.execute(world.admin, { email: address, role: 'staff' })
  await world.dispatch()
  await world.useCases.auth.acceptInvite.execute({
    token: tokenIn(world.fallbackMail().find((m) => m.to === invited.email)!),
    password: 'the first long passphrase',
  })
  return invited.email
}

const resetMailsTo = (world: MailWorld, to: string) =>
  world.fallbackMail().filter((m) => m.to === to && m.subject.startsWith('Choose a new password'))

describe('RequestPasswordReset', () => {
  test('known or not, the request only hands the email on, to run after the answer: nothing is read or written before', async () => {
    const world = await createMailWorld()
    const known = await confirmedMember(world, 'pat@example.org')
    const held: Array<{ what: string; work: () => Promise<void> }> = []
    const request = new RequestPasswordReset(
      { defer: (what, work) => void held.push({ what, work }) },
      world.container.get(PasswordResetLinks),
    )
    const stored = async () => ({
      audit: (await world.repositories.auditEvents.list(world.organizationId, {}, { page: 1, limit: 1 })).total,
      outbox: (await world.repositories.outbox.backlog()).pending,
    })
    const before = await stored()

    await request.execute({ email: known })
    await request.execute({ email: 'nobody@example.org' })
    // The request's whole work, the same for both: one piece left for later, nothing stored.
    expect(held.map((h) => h.what)).toEqual(['password reset', 'password reset'])
    expect(await stored()).toEqual(before)

    for (const { work } of held) await work()
    await world.dispatch()
    expect(resetMailsTo(world, known)).toHaveLength(1)
    expect(world.fallbackMail().filter((m) => m.to === 'nobody@example.org')).toEqual([])
  })

  test('a member is sent at most PASSWORD_RESET_MAILS_PER_HOUR links an hour; more requests still pass, sending nothing', async () => {
    const world = await createMailWorld({ PASSWORD_RESET_MAILS_PER_HOUR: '2' })
    const pat = await confirmedMember(world, 'pat@example.org')
    const sam = await confirmedMember(world, 'sam@example.org')
    for (let i = 0; i < 4; i++) {
      expect(await world.useCases.auth.requestPasswordReset.execute({ email: pat })).toBeUndefined()
      await world.dispatch()
      world.clock.advance(60_000)
    }
    expect(resetMailsTo(world, pat)).toHaveLength(2)
    // Per member: another one is sent its link.
    await world.useCases.auth.requestPasswordReset.execute({ email: sam })
    await world.dispatch()
    expect(resetMailsTo(world, sam)).toHaveLength(1)

    // An hour after the first link a place frees up.
    world.clock.advance(HOUR - 4 * 60_000)
    await world.useCases.auth.requestPasswordReset.execute({ email: pat })
    await world.dispatch()
    expect(resetMailsTo(world, pat)).toHaveLength(3)
  })

  test('the limit is per organization the email belongs to: each member of it counts its own links', async () => {
    const world = await createMailWorld({ PASSWORD_RESET_MAILS_PER_HOUR: '1' })
    const email = await confirmedMember(world, 'both@example.org')
    await world.useCases.auth.requestPasswordReset.execute({ email })
    const other = await world.otherOrganization()
    const invited = await other.useCases.members.invite.execute(other.admin, { email, role: 'staff' })
    await world.dispatch()
    await other.useCases.auth.acceptInvite.execute({
      token: tokenIn(
        world
          .fallbackMail()
          .filter((m) => m.to === invited.email && m.text.includes('/accept-invite?'))
          .at(-1)!,
      ),
      password: 'the first long passphrase',
    })

    await world.useCases.auth.requestPasswordReset.execute({ email })
    await world.dispatch()
    const mails = resetMailsTo(world, email)
    expect(mails.map((m) => m.organizationId).sort()).toEqual([world.organizationId, other.organizationId].sort())
  })
})
