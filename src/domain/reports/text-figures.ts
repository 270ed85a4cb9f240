import type { DeliveryStatus } from '../messaging/sms'
import type { ReportPeriod } from './needs-report'

// docs/api/needs.md "Reports": the texts of a period.

/** The texts recorded in a period: those received, and those sent by where they stand now. */
export interface TextFigures {
  received: number
  /** Taken by the provider: `sent` or `delivered` now. */
  sent: number
  delivered: number
  failed: number
}

/** How many texts of each direction and delivery status were recorded (one row per pair), as the store counts them. */
export interface TextCount {
  direction: 'inbound' | 'outbound'
  deliveryStatus?: DeliveryStatus
  texts: number
}

export function textFiguresOf(counts: readonly TextCount[]): TextFigures {
  const sum = (keep: (c: TextCount) => boolean) => counts.filter(keep).reduce((total, c) => total + c.texts, 0)
  const outbound = (...statuses: DeliveryStatus[]) =>
    sum((c) => c.direction === 'outbound' && c.deliveryStatus !== undefined && statuses.includes(c.deliveryStatus))
  return {
    received: sum((c) => c.direction === 'inbound'),
    sent: outbound('sent', 'delivered'),
    delivered: outbound('delivered'),
    failed: outbound('failed'),
  }
}

/** The instants of a period's UTC days: from the first's midnight, to the midnight after the last. */
export function periodInstants({ from, to }: ReportPeriod): { since: Date; until: Date } {
  const until = new Date(`${to}T00:00:00Z`)
  until.setUTCDate(until.getUTCDate() + 1)
  return { since: new Date(`${from}T00:00:00Z`), until }
}
