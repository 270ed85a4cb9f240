import { isPartnerRole } from '../../domain/auth/roles'
import { maySignIn, type Member } from '../../domain/members/member'
import { notificationsOf, type MailLanguage, type NotificationKind } from '../../domain/members/notifications'
import type { NeedStatus } from '../../domain/needs/need'
import type { Partner } from '../../domain/partners/partner'
import type { Outbox } from '../messaging/outbox'
import type { Repositories } from '../ports/repositories'
import type { NeedToName } from './numbering-need'

// docs/api/organization.md "Notifications": members are mailed that a need arrived or was given to them, through the
// outbox in the transaction that caused it (never lost, never twice). A mail says which need, never whose:
// the reference number, the partner, the status and a link into the console; the person's details and the
// need's own words stay behind the login.

interface NeedMail {
  subject: string
  opening: string
  reference: string
  partner: string
  status: string
  /** A status in words, as the console names it: the code (`PENDING_CLIENT`) means nothing to a reader. */
  statuses: Record<NeedStatus, string>
  open: string
  closing: string
}

const ARRIVED: Record<MailLanguage, (ref: string, partner: string) => Pick<NeedMail, 'subject' | 'opening'>> = {
  en: (ref, partner) => ({
    subject: `New request ${ref} for ${partner}`,
    opening: 'A new request for help arrived through the public form.',
  }),
  es: (ref, partner) => ({
    subject: `Nueva solicitud ${ref} para ${partner}`,
    opening: 'Llegó una nueva solicitud de ayuda por el formulario público.',
  }),
}

const ASSIGNED: Record<MailLanguage, (ref: string) => Pick<NeedMail, 'subject' | 'opening'>> = {
  en: (ref) => ({ subject: `Request ${ref} is assigned to you`, opening: 'A request for help was assigned to you.' }),
  es: (ref) => ({ subject: `La solicitud ${ref} se le asignó a usted`, opening: 'Se le asignó una solicitud de ayuda.' }),
}

const LABELS: Record<MailLanguage, Omit<NeedMail, 'subject' | 'opening'>> = {
  en: {
    reference: 'Reference',
    partner: 'Partner',
    status: 'Status',
    statuses: {
      NEW: 'New',
      IN_PROGRESS: 'In progress',
      PENDING_INTERNAL: 'Pending (internal)',
      PENDING_CLIENT: 'Pending (client)',
      RESOLVED: 'Resolved',
      ESCALATED: 'Escalated',
    },
    open: 'Open it in the staff console',
    closing: 'The details are in the console, behind your login.',
  },
  es: {
    reference: 'Referencia',
    partner: 'Socio',
    status: 'Estado',
    statuses: {
      NEW: 'Nueva',
      IN_PROGRESS: 'En curso',
      PENDING_INTERNAL: 'Pendiente (interna)',
      PENDING_CLIENT: 'Pendiente (cliente)',
      RESOLVED: 'Resuelta',
      ESCALATED: 'Escalada',
    },
    open: 'Ábrala en la consola del personal',
    closing: 'Los datos están en la consola, después de iniciar sesión.',
  },
}

export class NeedNotifications {
  constructor(
    private readonly outbox: Outbox,
    private readonly publicBaseUrl: string,
  ) {}

  /**
   * A need that came in without a member (public intake, the form): to those who see the whole organization
   * and to the members of its partner (`partner`, as the intake read it), each who has new needs on (on by
   * default for org_admin and partner_admin).
   */
  async arrived(r: Repositories, need: NeedToName, partner: Pick<Partner, 'name'>): Promise<void> {
    const partnerName = partner.name
    const members = await r.members.listActive(need.organizationId)
    const concerned = members.filter((m) => (isPartnerRole(m.role) ? m.partnerId === need.partnerId : true))
    for (const member of wanting(concerned, 'newNeeds')) {
      await this.mail(r, member, need, partnerName, (ref) => ARRIVED[languageOf(member)](ref, partnerName))
    }
  }

  /** `need` was just given to its assignee by someone else (`by`; none for an anonymous creation). */
  async assigned(r: Repositories, need: NeedToName, by: string | undefined): Promise<void> {
    if (!need.assignedTo || need.assignedTo === by) return
    const assignee = await r.members.findById(need.organizationId, need.assignedTo)
    if (!assignee || wanting([assignee], 'assignedToMe').length === 0) return
    await this.mail(r, assignee, need, await this.partnerName(r, need), ASSIGNED[languageOf(assignee)])
  }

  private async partnerName(r: Repositories, need: NeedToName): Promise<string> {
    return (await r.partners.findById(need.organizationId, need.partnerId))?.name ?? need.partnerId
  }

  private async mail(
    r: Repositories,
    member: Member,
    need: NeedToName,
    partnerName: string,
    words: (ref: string) => Pick<NeedMail, 'subject' | 'opening'>,
  ) {
    // The one thing here that waits for a new need's number, after the reads above went out.
    const referenceNumber = await need.referenceNumber
    const { subject, opening } = words(referenceNumber)
    const label = LABELS[languageOf(member)]
    const link = needLink(this.publicBaseUrl, referenceNumber)
    await this.outbox.email(r, need.organizationId, {
      template: 'need_notification',
      kind: 'notification',
      to: member.email,
      subject,
      text: [
        opening,
        '',
        `${label.reference}: ${referenceNumber}`,
        `${label.partner}: ${partnerName}`,
        `${label.status}: ${label.statuses[need.status]}`,
        '',
        `${label.open}: ${link}`,
        '',
        label.closing,
      ].join('\n'),
    })
  }
}

export const languageOf = (member: Member): MailLanguage => member.language ?? 'en'

/** The need in the staff console, by its reference number (what a mail may name). */
export function needLink(publicBaseUrl: string, referenceNumber: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/#/needs/${encodeURIComponent(referenceNumber)}`
}

export function wanting(members: Member[], kind: NotificationKind): Member[] {
  return members.filter((m) => maySignIn(m) && notificationsOf(m)[kind])
}
