import type { InviteMemberInput } from '../../../src/application/members/invite-member'
import type { MailWorld } from '../mail-world'

// What the InviteMember tests share (invite-member.test.ts, invitation-email.test.ts).

export const staffInput = (overrides: Partial<InviteMemberInput> = {}): InviteMemberInput => ({
  email: 'new.staff@example.org',
  role: 'staff',
  ...overrides,
})

/** Sends what the outbox holds and answers the mail the fallback was handed. */
export async function invitationSent(world: MailWorld) {
  await world.dispatch()
  return world.fallbackMail()
}
