import type { MailLanguage } from '../../domain/members/notifications'
import type { EmailMessage } from '../../domain/messaging/email'
import type { Need } from '../../domain/needs/need'
import { localTime } from '../../domain/organizations/digest-schedule'
import { needLink } from './need-notifications'

// docs/api/organization.md "Notifications": the daily digest names needs, never people: each need's reference number,
// partner, status, due date and link into the console; the person's details and the need's words stay there.

/** One list of the digest: the needs shown, and whether more were left out. */
export interface DigestList {
  needs: Need[]
  more: boolean
}

export interface DigestContent {
  overdue: DigestList
  unassigned: DigestList
  /** The partner whose unassigned needs are listed; undefined: the whole organization's. */
  partnerName: string | undefined
}

interface DigestWords {
  subject: (overdue: string, unassigned: string) => string
  overdue: string
  unassignedOf: (partner: string) => string
  unassignedOfAll: string
  due: string
  noDueDate: string
  more: string
  closing: string
}

const WORDS: Record<MailLanguage, DigestWords> = {
  en: {
    subject: (overdue, unassigned) => `Your daily digest: ${overdue} overdue, ${unassigned} unassigned`,
    overdue: 'Assigned to you and past their due date:',
    unassignedOf: (partner) => `Open requests of ${partner} that nobody is assigned to:`,
    unassignedOfAll: 'Open requests of the organization that nobody is assigned to:',
    due: 'due',
    noDueDate: 'no due date',
    more: '… and more in the staff console.',
    closing: 'The details are in the console, behind your login.',
  },
  es: {
    subject: (overdue, unassigned) => `Su resumen diario: ${overdue} vencidas, ${unassigned} sin asignar`,
    overdue: 'Asignadas a usted y con la fecha límite pasada:',
    unassignedOf: (partner) => `Solicitudes abiertas de ${partner} que nadie tiene asignadas:`,
    unassignedOfAll: 'Solicitudes abiertas de la organización que nadie tiene asignadas:',
    due: 'vence',
    noDueDate: 'sin fecha límite',
    more: '… y más en la consola del personal.',
    closing: 'Los datos están en la consola, después de iniciar sesión.',
  },
}

/** The mail of one member's digest, in its language; due dates as the organization's local dates. */
export function digestMail(
  to: string,
  language: MailLanguage,
  content: DigestContent,
  context: { partnerNames: ReadonlyMap<string, string>; timeZone: string; publicBaseUrl: string },
): EmailMessage {
  const words = WORDS[language]
  const line = (need: Need) =>
    [
      `- ${need.referenceNumber}`,
      context.partnerNames.get(need.partnerId) ?? need.partnerId,
      need.status,
      need.dueDate ? `${words.due} ${localTime(need.dueDate, context.timeZone).date}` : words.noDueDate,
      needLink(context.publicBaseUrl, need.referenceNumber),
    ].join(' · ')
  const section = (heading: string, list: DigestList) =>
    list.needs.length === 0 ? [] : [heading, ...list.needs.map(line), ...(list.more ? [words.more] : []), '']
  const { overdue, unassigned, partnerName } = content
  return {
    template: 'daily_digest',
    kind: 'notification',
    to,
    subject: words.subject(countOf(overdue), countOf(unassigned)),
    text: [
      ...section(words.overdue, overdue),
      ...section(partnerName === undefined ? words.unassignedOfAll : words.unassignedOf(partnerName), unassigned),
      words.closing,
    ].join('\n'),
  }
}

/** How many a list shows, `25+` when more were left out. */
const countOf = (list: DigestList) => `${list.needs.length}${list.more ? '+' : ''}`
