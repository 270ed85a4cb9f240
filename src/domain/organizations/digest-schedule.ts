import { matches, type IntegerRule, type TextRule } from '../shared/fields'

// docs/api/organization.md "Notifications": when an organization's members get their daily digest.

/** The local hour the digest goes at, 0 to 23. */
export const DIGEST_HOUR = { minimum: 0, maximum: 23 } as const satisfies IntegerRule
/** An IANA time zone name (`America/Chicago`, `Etc/GMT+5`, `UTC`); the longest in use is 32 characters. */
export const TIME_ZONE = {
  pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$',
  maxLength: 64,
} as const satisfies TextRule
export const DEFAULT_DIGEST_HOUR = 8
/** The organization's days until it sets its time zone. */
export const DEFAULT_TIME_ZONE = 'UTC'

export interface DigestSchedule {
  digestHour?: number
  timeZone?: string
}

/** Why `value` is not a time zone this runtime knows, or undefined when it is one. */
export function timeZoneProblem(value: unknown): string | undefined {
  const problem = 'must be an IANA time zone name, like America/Chicago or UTC'
  // The pattern keeps out what the runtime would take but is no name (an offset, `+05:00`).
  if (typeof value !== 'string' || value.length > TIME_ZONE.maxLength || !matches(value, TIME_ZONE.pattern)) return problem
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return undefined
  } catch {
    return problem
  }
}

/** The date (`YYYY-MM-DD`) and hour (0 to 23) a clock in `timeZone` shows at `instant`. */
export function localTime(instant: Date, timeZone: string): { date: string; hour: number } {
  const shown = wallClock(instant, timeZone)
  return { date: shown.slice(0, 10), hour: Number(shown.slice(11, 13)) }
}

/** What a clock in `timeZone` shows at `instant`: `YYYY-MM-DDTHH:MM:SS`. */
export function wallClock(instant: Date | number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`
}

/**
 * The local date whose digest is due at `now`, or undefined before the day's hour. Due from the hour on, not
 * only during it: a digest whose hour the worker missed (down, or an hour the clocks skipped when daylight
 * saving began) goes at the next round that day, and the per-member date makes it one a day (at most).
 */
export function dueDigestDate(now: Date, schedule: DigestSchedule): string | undefined {
  const { date, hour } = localTime(now, schedule.timeZone ?? DEFAULT_TIME_ZONE)
  return hour >= (schedule.digestHour ?? DEFAULT_DIGEST_HOUR) ? date : undefined
}
