import { RedeemPasswordLink, type PasswordLinkKind } from './password-link'

/** docs/api/access.md "Tokens": the invited member sets a password, becomes confirmed and is logged in. */
export class AcceptInvite extends RedeemPasswordLink {
  protected readonly kind: PasswordLinkKind = {
    purpose: undefined,
    accepts: (member) => member.deactivatedAt === undefined,
    refusal: 'This invitation is unknown, already used or expired: ask an administrator to send a new one',
    withPassword: (member, passwordHash) => ({ ...member, passwordHash, isConfirmed: true }),
    endsOtherSessions: false,
    audit: { action: 'accept_invite', fields: ['isConfirmed', 'password'] },
  }
}
