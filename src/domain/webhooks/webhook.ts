import type { FieldError } from '../errors'
import { FieldChecks, HTTP_URL, type ListRule } from '../shared/fields'

// docs/events.md: the events an organization's webhook endpoints may subscribe to.
export const WEBHOOK_EVENT_TYPES = [
  'need.created',
  'need.updated',
  'note.added',
  'constituent.created',
  'constituent.merged',
  'constituent.erased',
  'household_match.resolved',
  'sms.received',
  'sms.status',
  'message.attached',
  'referral.received',
  'referral.status_changed',
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** Ids only: a receiver that needs more reads it through the API with its own credentials (no PII leaves here). */
export type WebhookEventData = Record<string, string>

/** A receiver of an organization's events; its signing secret is kept sealed. */
export interface WebhookEndpoint {
  id: string
  organizationId: string
  url: string
  events: WebhookEventType[]
  /** `whsec_…`, sealed with AES-256-GCM under DATA_ENCRYPTION_KEY; answered once, when the endpoint is created. */
  sealedSecret: string
  enabled: boolean
  /** Deliveries that failed for good in a row, without a 2xx from the endpoint in between. */
  consecutiveFailures: number
  /** When repeated failure disabled it; absent while enabled or when disabled by hand. */
  disabledAt?: Date
  createdAt: Date
  updatedAt: Date
}

export const WEBHOOK_URL = HTTP_URL
export const WEBHOOK_EVENTS = { maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true } as const satisfies ListRule
/** Each event is written once per subscribed endpoint, inside the causing transaction: the fan-out stays small. */
export const MAX_WEBHOOK_ENDPOINTS = 20

/** At most this many tries of one delivery (docs/events.md "Retries"). */
export const WEBHOOK_MAX_ATTEMPTS = 8
/** The wait after the 1st to 7th failed try: 10 s, 1 min, 5 min, 30 min, 1 h, 3 h, 6 h (about 11 hours in all). */
const WEBHOOK_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000] as const
/** This many deliveries failed for good in a row, with no 2xx between them, disable the endpoint. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5

export function webhookRetryDelayMs(attemptsSoFar: number): number {
  return WEBHOOK_RETRY_DELAYS_MS[Math.min(attemptsSoFar, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? WEBHOOK_RETRY_DELAYS_MS[0]
}

export interface WebhookEndpointFields {
  url: string
  events: WebhookEventType[]
  enabled: boolean
}

/** The problems of a new endpoint (`url` and `events` required) or of a change to one (every field optional). */
export function webhookEndpointFieldErrors(input: Partial<WebhookEndpointFields>, change: 'create' | 'update'): FieldError[] {
  const named = change === 'create' ? 'required' : 'optional'
  const checks = new FieldChecks()
    .text('/url', input.url, WEBHOOK_URL, { presence: named, meaning: 'an http(s) URL' })
    .list(
      '/events',
      input.events,
      WEBHOOK_EVENTS,
      (e) => (WEBHOOK_EVENT_TYPES.includes(e as WebhookEventType) ? undefined : `must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`),
      named,
    )
    .boolean('/enabled', input.enabled, 'optional')
  if (Array.isArray(input.events) && input.events.length === 0)
    checks.errors.push({ path: '/events', message: 'must name at least one event' })
  const urlProblem =
    typeof input.url === 'string' && !checks.errors.some((e) => e.path === '/url') ? webhookUrlProblem(input.url) : undefined
  if (urlProblem) checks.errors.push({ path: '/url', message: urlProblem })
  return checks.errors
}

function webhookUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return 'must be an http(s) URL'
  const parsed = new URL(url)
  // A credential in the URL would be shown back by every GET; the signature is the receiver's proof.
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password'
  return undefined
}

/** The body of one event as it is signed and sent (Standard Webhooks: type, timestamp, data). */
export function webhookEventBody(type: WebhookEventType, at: Date, data: WebhookEventData): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data })
}
