import type { FieldError } from '../errors'
import { FieldChecks, type TextRule } from '../shared/fields'

// docs/api/organization.md "SMS"
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** A whole message (trimmed, any case) that is one of these opts the number out of the organization's texts. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const
export const OPT_IN_KEYWORDS = ['START', 'YES', 'UNSTOP'] as const

export function optKeywordOf(body: string): 'opt-out' | 'opt-in' | undefined {
  const word = body.trim().toUpperCase()
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return 'opt-out'
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return 'opt-in'
  return undefined
}

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
