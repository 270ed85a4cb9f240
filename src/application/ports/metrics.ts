import type { OutboxPayload } from '../../domain/messaging/outbox'

export type DeliveryChannel = OutboxPayload['channel']

/** What the outbox worker reports for monitoring (counters of the `/metrics` page). */
export interface DeliveryMetrics {
  /** The provider took a message. */
  sent(channel: DeliveryChannel): void
  /** A try failed; `final` when no other will be made. */
  failed(channel: DeliveryChannel, final: boolean): void
  /** The provider took a notification of staff (an email of kind `notification`), counted apart as well. */
  notificationSent(): void
  /** A try to send a notification failed; `final` when no other will be made. */
  notificationFailed(final: boolean): void
}

/** Where a need came in: staff (`POST /api/needs`), the public API (`POST /api/needs/public`), the intake page's form. */
export type IntakeChannel = 'staff' | 'public_api' | 'form'

/** What the needs' use cases report once their transaction committed (counters of the `/metrics` page). */
export interface NeedMetrics {
  opened(channel: IntakeChannel): void
  resolved(): void
}

/** What becomes of texts besides their sending (counters of the `/metrics` page): received, or reported delivered or failed. */
export type TextEvent = 'received' | 'delivered' | 'failed'

export interface TextMetrics {
  text(event: TextEvent): void
}
