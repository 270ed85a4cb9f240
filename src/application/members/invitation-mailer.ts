import type { Role } from '../../domain/auth/roles'
import { InvalidError } from '../../domain/errors'
import type { MailLanguage } from '../../domain/members/notifications'
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
    const words = INVITATION[member.language ?? 'en']
    const name = organization?.name ?? words.yourOrganization
    await this.outbox.email(r, member.organizationId, {
      template: 'invitation',
      to: member.email,
      subject: words.subject(name),
      text: [
        words.hello(member.fullName),
        '',
        words.invited(name, words.roles[member.role]),
        words.choose(oneTimeLink(base.url, 'accept-invite', token)),
        '',
        words.ignore,
      ].join('\n'),
    })
  }
}

/** The invitation in the member's language, the role in words (a code such as `partner_agent` says nothing to the invited). */
const INVITATION: Record<MailLanguage, InvitationWords> = {
  en: {
    yourOrganization: 'your organization',
    subject: (name) => `You are invited to ${name}`,
    hello: (fullName) => `Hello${fullName ? ` ${fullName}` : ''},`,
    invited: (name, role) => `You have been invited to join ${name} on the intake service as ${role}.`,
    choose: (link) => `Choose your password here within 7 days: ${link}`,
    ignore: 'If you did not expect this, you can ignore this message.',
    roles: {
      org_admin: 'an administrator of the organization',
      staff: 'a member of staff',
      volunteer: 'a volunteer',
      partner_admin: 'an administrator of a partner',
      partner_agent: 'an agent of a partner',
    },
  },
  es: {
    yourOrganization: 'su organización',
    subject: (name) => `Le invitan a ${name}`,
    hello: (fullName) => `Hola${fullName ? ` ${fullName}` : ''}:`,
    invited: (name, role) => `Le invitaron a unirse a ${name} en el servicio de solicitudes como ${role}.`,
    choose: (link) => `Elija su contraseña aquí en un plazo de 7 días: ${link}`,
    ignore: 'Si no esperaba este mensaje, puede ignorarlo.',
    roles: {
      org_admin: 'administrador(a) de la organización',
      staff: 'parte del personal',
      volunteer: 'voluntario(a)',
      partner_admin: 'administrador(a) de un socio',
      partner_agent: 'agente de un socio',
    },
  },
}

interface InvitationWords {
  yourOrganization: string
  subject(name: string): string
  hello(fullName: string | undefined): string
  invited(name: string, role: string): string
  choose(link: string): string
  ignore: string
  roles: Record<Role, string>
}
