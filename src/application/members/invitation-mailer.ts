import { InvalidError } from '../../domain/errors'
import { INVITATION_LIFETIME_MS, invitationLinkBase, oneTimeLink } from '../../domain/members/invitation'
import type { Member } from '../../domain/members/member'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { SecretTokens } from '../ports/secret-tokens'
import { issueLinkToken } from './one-time-links'

/**
 * Issues a one-time invitation for a member and puts its email in the outbox, inside the caller's
 * transaction: the token is stored only as a digest and works for 7 days (docs/api/access.md "Tokens"). The link
 * leads to PUBLIC_BASE_URL, or to an `appUrl` on an origin the organization allows, built from the parsed URL
 * (a 400 at `/appUrl` otherwise, which rolls the caller's transaction back).
 */
export class InvitationMailer {
  constructor(
    private readonly outbox: Outbox,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly publicBaseUrl: string,
  ) {}

  async invite(r: Repositories, member: Member, appUrl: string | undefined): Promise<void> {
    const organization = await r.organizations.findById(member.organizationId)
    const base = invitationLinkBase(appUrl ?? this.publicBaseUrl, this.publicBaseUrl, organization?.appOrigins)
    if ('problem' in base)
      throw new InvalidError('The invitation link may not lead to that address', [{ path: '/appUrl', message: base.problem }])
    const token = await issueLinkToken(
      r,
      { secrets: this.secrets, ids: this.ids },
      member,
      undefined,
      this.clock.now(),
      INVITATION_LIFETIME_MS,
    )
    const name = organization?.name ?? 'your organization'
    await this.outbox.email(r, member.organizationId, {
      template: 'invitation',
      to: member.email,
      subject: `You are invited to ${name}`,
      text: [
        `Hello${member.fullName ? ` ${member.fullName}` : ''},`,
        '',
        `You have been invited to join ${name} on the intake service as ${member.role}.`,
        `Choose your password here within 7 days: ${oneTimeLink(base.url, 'accept-invite', token)}`,
        '',
        'If you did not expect this, you can ignore this message.',
      ].join('\n'),
    })
  }
}
