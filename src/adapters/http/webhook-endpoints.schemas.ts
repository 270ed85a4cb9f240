import { t } from 'elysia'
import type { WebhookDelivery } from '../../application/webhooks/list-webhook-deliveries'
import type { WebhookEndpointView } from '../../application/webhooks/webhook-endpoints'
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_URL } from '../../domain/webhooks/webhook'
import { Body, DateTime, Int32, Named, OneOf, Uuid } from './common.schemas'

// docs/events.md
const EventType = OneOf(WEBHOOK_EVENT_TYPES, { description: 'An event type' })
const Events = t.Array(EventType, { ...WEBHOOK_EVENTS, minItems: 1, description: 'The events sent to this endpoint' })
const Url = t.String({ ...WEBHOOK_URL, description: 'Where events are posted: an http(s) URL' })

const endpointFields = {
  id: Uuid,
  url: t.String({ maxLength: WEBHOOK_URL.maxLength }),
  events: t.Array(EventType, { maxItems: WEBHOOK_EVENTS.maxItems }),
  enabled: t.Boolean({ description: 'False when disabled by hand or after repeated failure (see disabledAt)' }),
  consecutiveFailures: Int32({ minimum: 0, maximum: 1_000_000 }, { description: 'Deliveries failed for good in a row' }),
  disabledAt: t.Optional({ ...DateTime, description: 'When repeated failure disabled the endpoint' }),
  createdAt: DateTime,
  updatedAt: DateTime,
}

export const WebhookEndpointSchema = Named('WebhookEndpoint', t.Object(endpointFields, { description: 'A receiver of signed events' }))

export const CreatedWebhookEndpointSchema = Named(
  'CreatedWebhookEndpoint',
  t.Object(
    {
      ...endpointFields,
      secret: t.String({ maxLength: 100, description: 'The signing secret, `whsec_` and base64: shown this once only' }),
    },
    { description: 'The new endpoint with its signing secret' },
  ),
)

export const CreateWebhookEndpointBody = Named('NewWebhookEndpoint', Body({ url: Url, events: Events, enabled: t.Optional(t.Boolean()) }))
export const UpdateWebhookEndpointBody = Named(
  'WebhookEndpointUpdate',
  Body({
    url: t.Optional(Url),
    events: t.Optional(Events),
    enabled: t.Optional(t.Boolean({ description: 'true re-enables an endpoint that repeated failure disabled' })),
  }),
)

export const WebhookDeliverySchema = Named(
  'WebhookDelivery',
  t.Object(
    {
      id: t.String({ maxLength: 36, description: 'The webhook-id header, the same on every try' }),
      eventType: EventType,
      status: OneOf(['pending', 'sending', 'sent', 'failed'] as const),
      attempts: Int32({ minimum: 0, maximum: WEBHOOK_MAX_ATTEMPTS }),
      lastStatusCode: t.Optional(Int32({ minimum: 100, maximum: 599 }, { description: "The endpoint's HTTP status at the latest try" })),
      lastError: t.Optional(t.String({ maxLength: 500 })),
      nextAttemptAt: t.Optional(DateTime),
      createdAt: DateTime,
      deliveredAt: t.Optional(DateTime),
    },
    { description: 'One event sent (or being sent) to one endpoint' },
  ),
)

const iso = (d: Date | undefined) => d?.toISOString()

export function webhookEndpointView(endpoint: WebhookEndpointView) {
  const { disabledAt, createdAt, updatedAt, ...rest } = endpoint
  return {
    ...rest,
    ...(disabledAt ? { disabledAt: iso(disabledAt) } : {}),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  }
}

export function webhookDeliveryView(delivery: WebhookDelivery) {
  const { nextAttemptAt, createdAt, deliveredAt, ...rest } = delivery
  return {
    ...rest,
    eventType: rest.eventType as (typeof WEBHOOK_EVENT_TYPES)[number],
    ...(nextAttemptAt ? { nextAttemptAt: iso(nextAttemptAt) } : {}),
    createdAt: createdAt.toISOString(),
    ...(deliveredAt ? { deliveredAt: iso(deliveredAt) } : {}),
  }
}
