import type { FieldError } from '../errors'
import { FieldChecks, type TextRule } from '../shared/fields'
import { MAIL_LANGUAGES, type MailLanguage } from '../members/notifications'

// docs/api/organization.md "SMS"
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** What a keyword asks: no more texts, texts again, or who is texting and how to stop. */
export type SmsKeyword = 'opt-out' | 'opt-in' | 'help'

/**
 * The one table of keywords (docs/api/organization.md "SMS"): a whole message (trimmed, any case) that is one of
 * these. The language is the one the help answer is written in; STOP and START work in either.
 */
export const SMS_KEYWORDS: Record<SmsKeyword, Record<MailLanguage, readonly string[]>> = {
  'opt-out': { en: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'], es: ['ALTO', 'PARAR', 'BAJA'] },
  'opt-in': { en: ['START', 'YES', 'UNSTOP'], es: ['COMENZAR', 'SI', 'SÍ'] },
  help: { en: ['HELP'], es: ['AYUDA'] },
}

export function smsKeywordOf(body: string): { keyword: SmsKeyword; language: MailLanguage } | undefined {
  const word = body.trim().toUpperCase()
  for (const [keyword, languages] of Object.entries(SMS_KEYWORDS) as Array<[SmsKeyword, Record<MailLanguage, readonly string[]>]>) {
    for (const language of MAIL_LANGUAGES) if (languages[language].includes(word)) return { keyword, language }
  }
  return undefined
}

/** The automatic answer to HELP (English) and AYUDA (Spanish): who is texting, and how to stop and start again. */
export function helpAnswerOf(language: MailLanguage, organizationName: string): string {
  return language === 'es'
    ? `${organizationName}: mensajes sobre su solicitud de ayuda. Responda ALTO para no recibir más mensajes y COMENZAR para volver a recibirlos.`
    : `${organizationName}: texts about your request for help. Reply STOP to receive no more texts, START to receive them again.`
}

/** A number is answered HELP at most once in this long, per organization (docs/api/organization.md "SMS"). */
export const HELP_ANSWER_INTERVAL_MS = 24 * 3_600_000

export const SMS_BODY = { minLength: 1, maxLength: 1600 } as const satisfies TextRule

/** One parameter of the provider's webhooks (Twilio's form fields): longer ones are refused (400). */
export const WEBHOOK_VALUE = { maxLength: 5000 } as const satisfies TextRule

/** The most kept of a provider's id of a message (Twilio's SID, an email's Message-ID): a longer one is dropped. */
export const PROVIDER_MESSAGE_ID = WEBHOOK_VALUE

/** The provider's id when it fits PROVIDER_MESSAGE_ID; a webhook's parameter always does. */
export function keptProviderMessageId(id: string | undefined): string | undefined {
  return id !== undefined && id.length <= PROVIDER_MESSAGE_ID.maxLength ? id : undefined
}

/** The problems of a text staff send: within the bound, and more than spaces. */
export function smsBodyErrors(body: string): FieldError[] {
  return new FieldChecks()
    .text('/body', body, SMS_BODY)
    .check('/body', body, 'required', (v) => (typeof v === 'string' && v.length > 0 && v.trim() === '' ? 'must not be blank' : undefined))
    .errors
}

/**
 * Twilio's message statuses as ours: accepted and queued stay queued, sending and sent are sent,
 * delivered is delivered, undelivered and failed are failed. Others (read, receiving…) change nothing.
 */
export function deliveryStatusOf(providerStatus: string): DeliveryStatus | undefined {
  switch (providerStatus.toLowerCase()) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
      return 'queued'
    case 'sending':
    case 'sent':
      return 'sent'
    case 'delivered':
      return 'delivered'
    case 'undelivered':
    case 'failed':
    case 'canceled':
      return 'failed'
    default:
      return undefined
  }
}

/** A later status never moves a message back: delivered and failed are final. */
export function advancesDelivery(from: DeliveryStatus | undefined, to: DeliveryStatus): boolean {
  if (from === 'delivered' || from === 'failed') return false
  const order: Record<DeliveryStatus, number> = { queued: 0, sent: 1, delivered: 2, failed: 2 }
  return from === undefined || order[to] >= order[from]
}

/** The data of an `sms.status` event (docs/events.md): the text, its status, and its need when it is on one. */
export function smsStatusEvent(text: { id: string; needId?: string | undefined }, status: DeliveryStatus): Record<string, string> {
  return { interactionId: text.id, status, ...(text.needId ? { needId: text.needId } : {}) }
}

/** How long a status that came before its send was recorded waits for it (docs/api/organization.md "SMS"). */
export const EARLY_STATUS_KEPT_MS = 24 * 3_600_000
