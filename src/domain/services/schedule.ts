import type { ListRule, TextRule } from '../shared/fields'

// docs/api/services.md "Opening hours": a week's hours, each entry one HSDS schedule (freq WEEKLY, byday, opens_at, closes_at).

/** The days of the week as iCalendar (RFC 5545) writes them, HSDS's `byday`, Monday first. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** Opening hours on some days of every week: `opensAt` to `closesAt`, local times `HH:MM` of the same day. */
export interface OpeningHours {
  byDay: Weekday[]
  opensAt: string
  closesAt: string
  description?: string
}

export const SCHEDULE = { maxItems: 21 } as const satisfies ListRule
export const BY_DAY = { maxItems: 7, uniqueItems: true } as const satisfies ListRule
/** A time of day on the 24-hour clock, `00:00` to `23:59`. */
export const TIME_OF_DAY = { pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5 } as const satisfies TextRule
export const TIME_OF_DAY_MEANING = 'a time of day as HH:MM, 00:00 to 23:59'
export const HOURS_DESCRIPTION = { maxLength: 500 } as const satisfies TextRule

/** Why `value` is no opening hours entry, or undefined. */
export function openingHoursProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of byDay, opensAt and closesAt'
  const { byDay, opensAt, closesAt, description, ...rest } = value as Record<string, unknown>
  if (Object.keys(rest).length > 0) return `must not have ${Object.keys(rest)[0]}`
  if (!Array.isArray(byDay) || byDay.length === 0 || byDay.length > BY_DAY.maxItems) return 'must have byDay, one to seven days'
  if (!byDay.every((day) => WEEKDAYS.includes(day))) return `must have byDay of: ${WEEKDAYS.join(', ')}`
  if (new Set(byDay).size !== byDay.length) return 'must not repeat a day in byDay'
  if (!isTimeOfDay(opensAt) || !isTimeOfDay(closesAt)) return `must have opensAt and closesAt, each ${TIME_OF_DAY_MEANING}`
  if (closesAt <= opensAt) return 'must have closesAt after opensAt (hours past midnight are an entry of the next day)'
  if (description !== undefined && (typeof description !== 'string' || description.length > HOURS_DESCRIPTION.maxLength)) {
    return `must have a description of at most ${HOURS_DESCRIPTION.maxLength} characters`
  }
  return undefined
}

function isTimeOfDay(value: unknown): value is string {
  return typeof value === 'string' && new RegExp(TIME_OF_DAY.pattern).test(value)
}

/** The days in the week's order, as they are kept, so an entry reads the same however it was sent. */
export function inWeekOrder(hours: OpeningHours): OpeningHours {
  return { ...hours, byDay: WEEKDAYS.filter((day) => hours.byDay.includes(day)) }
}
