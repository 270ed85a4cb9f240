import type { OutboxPayload } from '../../domain/messaging/outbox'

export type DeliveryChannel = OutboxPayload['channel']

/** What the outbox worker reports for monitoring (counters of the `/metrics` page). */
export interface DeliveryMetrics {
  /** The provider took a message. */
  sent(channel: DeliveryChannel): void
  /** A try failed; `final` when no other will be made. */
  failed(channel: DeliveryChannel, final: boolean): void
}
