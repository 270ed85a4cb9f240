import { scopeOf, seesPartner, type Actor } from '../auth/actor'
import { isAllowed } from '../auth/permissions'
import type { WebhookEventData, WebhookEventType } from './webhook'

/**
 * Not streamed: the member named by `data.memberId` signed in or out, or its access changed (deactivated, a
 * new role or partner, a password changed), so every instance checks its open streams again (docs/events.md).
 */
export const MEMBER_CHANGED = 'member.changed'
export type LiveEventType = WebhookEventType | typeof MEMBER_CHANGED

/** An event as recorded at its commit for the live stream (docs/events.md "The live stream"), numbered in order. */
export interface LiveEvent {
  id: number
  organizationId: string
  type: LiveEventType
  data: WebhookEventData
  createdAt: Date
}

/** How long after an event a stream reconnecting with its id still gets what followed it; then `reset`. */
export const LIVE_REPLAY_WINDOW_MS = 5 * 60_000
/** A comment this often keeps proxies from closing a quiet stream. */
export const LIVE_HEARTBEAT_MS = 20_000
/** At most this many events are replayed to a stream that reconnects; more missed is a `reset`. */
export const LIVE_REPLAY_LIMIT = 1_000

/**
 * Whom an event concerns: a need (read by whoever sees its partner), constituents, the whole organization, texts
 * on no need (read by whoever may send texts, and, once one is on a need, whoever sees that need), or nobody.
 */
export type LiveAudience =
  | { kind: 'need'; partnerId: string }
  | { kind: 'constituents' }
  | { kind: 'organization' }
  | { kind: 'messages'; partnerId?: string }
  | { kind: 'nobody' }

/** Whether a member may be told of an event: the reach `GET /api/needs` and the constituents' reads give it. */
export function mayReceive(actor: Actor, audience: LiveAudience): boolean {
  switch (audience.kind) {
    case 'need':
      return isAllowed(actor, 'needs:read') && seesPartner(actor, audience.partnerId)
    case 'constituents':
      return isAllowed(actor, 'constituents:read')
    case 'organization':
      return isAllowed(actor, 'needs:read') && scopeOf(actor).kind === 'organization'
    case 'messages':
      return (
        isAllowed(actor, 'needs:send-sms') ||
        (audience.partnerId !== undefined && mayReceive(actor, { kind: 'need', partnerId: audience.partnerId }))
      )
    case 'nobody':
      return false
  }
}
