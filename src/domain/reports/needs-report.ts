import { DATE_PATTERN, isCalendarDate } from '../constituents/contact'
import type { FieldError } from '../errors'
import { NEED_STATUSES, isOpen, type NeedStatus } from '../needs/need'
import type { TextRule } from '../shared/fields'

// docs/api/needs.md "Reports"

/** A day of the report's period, YYYY-MM-DD: the organization's day, which is UTC's. */
export const REPORT_DAY = { pattern: DATE_PATTERN, maxLength: 10 } as const satisfies TextRule
/** A period of at most a (leap) year: what the report reads grows with its days. */
export const MAX_REPORT_DAYS = 366

/** The days from `from` to `to`, both included. */
export interface ReportPeriod {
  from: string
  to: string
}

const DAY_MS = 86_400_000

/** The UTC day of an instant, YYYY-MM-DD: the day a need's opening or resolution is counted on. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** The Monday (UTC) of the week of an instant, YYYY-MM-DD: the week open needs are counted in by due date. */
export function weekOf(at: Date): string {
  return dayAt(mondayOf(dayNumber(dayOf(at))))
}

// Day 0 (1970-01-01) was a Thursday: its Monday is 3 days back.
const mondayOf = (n: number) => n - ((n + 3) % 7)

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS
}

function dayAt(n: number): string {
  return dayOf(new Date(n * DAY_MS))
}

/**
 * A period as the stores keep resolve times: its whole calendar months (YYYY-MM, first and last; none when it
 * holds no whole month), and the days before and after them, read day by day.
 */
export function periodMonths(period: ReportPeriod): { months?: { from: string; to: string }; days: ReportPeriod[] } {
  const first = period.from.endsWith('-01') ? period.from.slice(0, 7) : monthAfter(period.from)
  const last = dayAt(dayNumber(period.to) + 1).endsWith('-01') ? period.to.slice(0, 7) : monthBefore(period.to)
  if (first > last) return { days: [period] }
  const days: ReportPeriod[] = []
  if (period.from < `${first}-01`) days.push({ from: period.from, to: dayAt(dayNumber(`${first}-01`) - 1) })
  const afterLast = `${monthAfter(`${last}-01`)}-01`
  if (afterLast <= period.to) days.push({ from: afterLast, to: period.to })
  return { months: { from: first, to: last }, days }
}

/** The month after (or before) a day's, YYYY-MM. */
function monthAfter(day: string): string {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`)
  d.setUTCMonth(d.getUTCMonth() + 1)
  return dayOf(d).slice(0, 7)
}

function monthBefore(day: string): string {
  return dayAt(dayNumber(`${day.slice(0, 7)}-01`) - 1).slice(0, 7)
}

export function reportPeriodErrors(period: { from?: unknown; to?: unknown }): FieldError[] {
  const errors: FieldError[] = []
  for (const key of ['from', 'to'] as const) {
    const value = period[key]
    if (typeof value !== 'string' || !isCalendarDate(value)) errors.push({ path: `/${key}`, message: 'must be a date, YYYY-MM-DD' })
  }
  if (errors.length > 0) return errors
  const days = dayNumber(period.to as string) - dayNumber(period.from as string) + 1
  if (days < 1) errors.push({ path: '/to', message: 'must not be before from' })
  else if (days > MAX_REPORT_DAYS)
    errors.push({ path: '/to', message: `must be at most ${MAX_REPORT_DAYS} days after from, both included` })
  return errors
}

/**
 * What the stores keep, read for one period (and, for `statuses` and `overdue`, as of now). Each list holds
 * only rows that count something; a partner role's figures hold its partner's rows only.
 */
export interface NeedFigures {
  /** Needs opened (by creation time) and resolved (by their last resolution) on each day of the period, per partner. */
  days: Array<{ partnerId: string; day: string; opened: number; resolved: number }>
  /** How many of the period's resolutions took each number of whole hours (`hoursToResolve`), per partner. */
  resolveHours: Array<{ partnerId: string; hours: number; needs: number }>
  /** Needs now in each status, per partner. */
  statuses: Array<{ partnerId: string; status: NeedStatus; needs: number }>
  /** Needs now overdue (`isOverdue`), per partner. */
  overdue: Array<{ partnerId: string; needs: number }>
}

export interface PartnerFigures {
  partnerId: string
  partnerName: string
  opened: number
  resolved: number
  open: number
  overdue: number
  /** Of the period's resolutions, in whole hours; null when there were none. */
  medianHoursToResolve: number | null
}

export interface NeedsReport extends ReportPeriod {
  opened: number
  resolved: number
  open: number
  overdue: number
  byStatus: Record<NeedStatus, number>
  byPartner: PartnerFigures[]
  byWeek: Array<{ weekStart: string; opened: number; resolved: number }>
}

/** The report of the period from the kept figures, for these partners (those the reader sees), in the given order. */
export function needsReport(period: ReportPeriod, partners: Array<{ id: string; name: string }>, figures: NeedFigures): NeedsReport {
  const byPartner = partners.map(({ id, name }) => {
    const days = figures.days.filter((d) => d.partnerId === id)
    return {
      partnerId: id,
      partnerName: name,
      opened: sum(days.map((d) => d.opened)),
      resolved: sum(days.map((d) => d.resolved)),
      open: sum(figures.statuses.filter((s) => s.partnerId === id && isOpen(s.status)).map((s) => s.needs)),
      overdue: sum(figures.overdue.filter((o) => o.partnerId === id).map((o) => o.needs)),
      medianHoursToResolve: median(figures.resolveHours.filter((h) => h.partnerId === id)),
    }
  })
  const byStatus = Object.fromEntries(
    NEED_STATUSES.map((status) => [status, sum(figures.statuses.filter((s) => s.status === status).map((s) => s.needs))]),
  ) as Record<NeedStatus, number>
  return {
    ...period,
    opened: sum(byPartner.map((p) => p.opened)),
    resolved: sum(byPartner.map((p) => p.resolved)),
    open: sum(byPartner.map((p) => p.open)),
    overdue: sum(byPartner.map((p) => p.overdue)),
    byStatus,
    byPartner,
    byWeek: weeksOf(period, figures.days),
  }
}

/** Every week (Monday to Sunday) the period touches, counting only the period's days. */
function weeksOf(period: ReportPeriod, days: NeedFigures['days']) {
  const first = dayNumber(period.from)
  const last = dayNumber(period.to)
  const weeks = new Map<number, NeedsReport['byWeek'][number]>()
  for (let monday = mondayOf(first); monday <= last; monday += 7) weeks.set(monday, { weekStart: dayAt(monday), opened: 0, resolved: 0 })
  for (const d of days) {
    const week = weeks.get(mondayOf(dayNumber(d.day)))
    if (!week) continue
    week.opened += d.opened
    week.resolved += d.resolved
  }
  return [...weeks.values()]
}

/** The median of a histogram of whole hours; of an even count, the mean of the two middle values. */
function median(histogram: Array<{ hours: number; needs: number }>): number | null {
  const total = sum(histogram.map((h) => h.needs))
  if (total === 0) return null
  const sorted = [...histogram].sort((a, b) => a.hours - b.hours)
  const at = (index: number) => {
    let seen = 0
    for (const { hours, needs } of sorted) {
      seen += needs
      if (index < seen) return hours
    }
    return sorted[sorted.length - 1]!.hours
  }
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0)
}
