import { wallClock } from '../organizations/digest-schedule'
import type { ReportPeriod } from './needs-report'

// docs/api/needs.md "People served"

/** How many different people and households a set of resolved needs was for. */
export interface ServedCount {
  people: number
  households: number
}

/** What the store counts: distinct over the period's resolved needs, in all (a person served by two partners once) and per partner. */
export interface ServedFigures {
  total: ServedCount
  byPartner: Array<ServedCount & { partnerId: string }>
}

export interface ServedReport extends ReportPeriod, ServedCount {
  /** The organization's time zone, whose days the period's are. */
  timeZone: string
  /** The period's instants: its first day's first instant, and the first instant after its last day. */
  since: Date
  until: Date
  byPartner: Array<ServedCount & { partnerId: string; partnerName: string }>
}

/** The report of the period for these partners (those the reader sees), in the given order; a partner that served nobody counts 0. */
export function servedReport(
  period: ReportPeriod,
  zone: { timeZone: string; since: Date; until: Date },
  partners: Array<{ id: string; name: string }>,
  figures: ServedFigures,
): ServedReport {
  const counted = new Map(figures.byPartner.map((p) => [p.partnerId, p]))
  return {
    ...period,
    ...zone,
    ...figures.total,
    byPartner: partners.map(({ id, name }) => ({
      partnerId: id,
      partnerName: name,
      people: counted.get(id)?.people ?? 0,
      households: counted.get(id)?.households ?? 0,
    })),
  }
}

/**
 * The instants of a period's days in `timeZone` (an IANA name): from the first day's first instant to the
 * first instant after the last day. A day begins at its local midnight, or, where the clocks skip midnight,
 * at the first instant the clocks show that day.
 */
export function zonedPeriodInstants({ from, to }: ReportPeriod, timeZone: string): { since: Date; until: Date } {
  const next = new Date(`${to}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return { since: dayStart(from, timeZone), until: dayStart(next.toISOString().slice(0, 10), timeZone) }
}

function dayStart(day: string, timeZone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`)
  // The wall clock at midnight UTC less its offset; again with the offset there, which differs across a change of the clocks.
  const first = midnight - offsetAt(midnight, timeZone)
  const start = midnight - offsetAt(first, timeZone)
  // A start the clocks skipped shows the day before: the day begins where the clocks jump to.
  return new Date(wallClock(start, timeZone).slice(0, 10) < day ? first : start)
}

/** How far ahead of UTC the clocks of `timeZone` are at `at`, in milliseconds. */
function offsetAt(at: number, timeZone: string): number {
  return Date.parse(`${wallClock(at, timeZone)}Z`) - Math.floor(at / 1000) * 1000
}
