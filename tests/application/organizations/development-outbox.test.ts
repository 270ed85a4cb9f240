import { beforeEach, describe, expect, test } from 'bun:test'
import { ForbiddenError } from '../../../src/domain/errors'
import { DEVELOPMENT_OUTBOX_DAYS, LINK_WITHHELD } from '../../../src/domain/messaging/development-outbox'
import { PORTS } from '../../../src/main/container'
import { register } from '../constituents/steps'
import { failureOf } from '../failure-of'
import { createMailWorld, linkIn, tokenIn, type MailWorld } from '../mail-world'

// docs/api/organization.md "Development outbox": with no provider set, what would have been sent is kept for
// the organization's admins, a password reset's link withheld; erased with the person, purged after a week.
let world: MailWorld
beforeEach(async () => {
  world = await createMailWorld()
})

const kept = async (actor = world.admin) => (await world.useCases.organizations.listOutbox.execute(actor, { page: 1, limit: 100 })).items
/** A text as the dispatcher hands it to the SMS provider, SMS_PROVIDER=log. */
const text = (to: string, body: string) =>
  world.container.get(PORTS.sms).send({ organizationId: world.organizationId, from: '+15035550100', to, body })
const DAY = 24 * 60 * 60_000

describe('the development outbox', () => {
  test('keeps the mail of an organization without email settings, newest first; a password reset without its link', async () => {
    const invited = await world.useCases.members.invite.execute(world.admin, { email: 'kim@example.org', role: 'staff' })
    await world.dispatch()
    await world.useCases.auth.acceptInvite.execute({
      token: tokenIn(world.fallbackMail().find((m) => m.to === invited.email)!),
      password: 'a long enough passphrase',
    })
    world.clock.advance(60_000)
    await world.useCases.auth.requestPasswordReset.execute({ email: invited.email })
    await world.dispatch()

    const [reset, invitation] = await kept()
    expect(reset).toMatchObject({ channel: 'email', kind: 'password_reset', recipient: invited.email })
    // The mail as sent held the link; as kept it does not.
    expect(world.fallbackMail().find((m) => m.template === 'password_reset')!.text).toContain('/reset-password?token=')
    expect(reset!.body).not.toContain('token')
    expect(reset!.body).toContain(LINK_WITHHELD)
    // An invitation's link is the admin's own to give: shown.
    expect(invitation).toMatchObject({ channel: 'email', kind: 'invitation', recipient: invited.email })
    expect(invitation!.body).toContain(linkIn(world.fallbackMail().find((m) => m.template === 'invitation')!))
  })

  test('keeps the texts while SMS_PROVIDER=log, for their organization only; org_admin only', async () => {
    await text('+15035550199', 'Your box is ready')
    expect(await kept()).toMatchObject([{ channel: 'sms', kind: 'sms', recipient: '+15035550199', body: 'Your box is ready' }])
    expect(await kept((await world.otherOrganization()).admin)).toEqual([])
    await failureOf(kept(await world.member('staff')), ForbiddenError)
  })

  test('erasing a person erases what would have been sent to their phone or email', async () => {
    const ana = await register(world, { firstName: 'Ana', phone: '+15035550123', email: 'ana@example.org' })
    await text('+15035550123', 'For Ana')
    await text('+15035550124', 'For someone else')
    await world.useCases.constituents.erase.execute(world.admin, ana.id)
    expect((await kept()).map((message) => message.body)).toEqual(['For someone else'])
  })

  test(`the worker's retention removes what was kept ${DEVELOPMENT_OUTBOX_DAYS} days ago or more`, async () => {
    await text('+15035550199', 'Old')
    world.clock.advance(DAY)
    await text('+15035550199', 'Recent')
    world.clock.advance((DEVELOPMENT_OUTBOX_DAYS - 1) * DAY)
    expect((await world.useCases.operations.applyRetention.execute()).unsentMessagesRemoved).toBe(1)
    expect((await kept()).map((message) => message.body)).toEqual(['Recent'])
  })
})
