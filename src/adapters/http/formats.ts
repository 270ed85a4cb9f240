import '@elysiajs/openapi'
import { FormatRegistry } from '@sinclair/typebox'
import { isCalendarDate } from '../../domain/constituents/contact'

/**
 * The string formats the schemas use, checked by the service itself. Importing @elysiajs/openapi replaces
 * TypeBox's global format checkers with ones that build a new Zod schema on every check: a page of 25 needs
 * then spent a third of its time validating ids. These take no allocation and keep the same answers
 * (Zod's RFC 9562 uuid, a real calendar date; date-time as Elysia has it, its usual form read first).
 * Imported after that package, so they are the last word.
 */
const UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i

/** Elysia's date-time checker: lenient (it takes any text Date can read), and it parses every value. */
const readableDateTime = FormatRegistry.Get('date-time')!

/** What Date#toISOString writes with a four-digit year: every time of every answer. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const digits = (text: string, at: number, count: number) => {
  let n = 0
  for (let i = at; i < at + count; i++) n = n * 10 + text.charCodeAt(i) - 48
  return n
}

/**
 * True for a real instant written as Date#toISOString writes it, read without parsing a Date: a page of
 * 25 needs has 50 such times to check, and parsing them cost a tenth of the page. Elysia's checker
 * answers true for every one of them too; anything else (other offsets, no fraction, other text Date reads)
 * is still left to it, so the answers are the same as before.
 */
export function isIsoInstant(value: string): boolean {
  if (value.length !== 24 || !ISO_INSTANT.test(value)) return false
  const year = digits(value, 0, 4)
  const month = digits(value, 5, 2)
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const day = digits(value, 8, 2)
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return false
  return digits(value, 11, 2) <= 23 && digits(value, 14, 2) <= 59 && digits(value, 17, 2) <= 59
}

export const SERVICE_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  uuid: (value) => UUID.test(value),
  date: isCalendarDate,
  'date-time': (value) => isIsoInstant(value) || readableDateTime(value),
}

for (const [name, check] of Object.entries(SERVICE_FORMATS)) FormatRegistry.Set(name, check)
