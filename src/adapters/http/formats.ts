import '@elysiajs/openapi'
import { FormatRegistry } from '@sinclair/typebox'
import { isCalendarDate } from '../../domain/constituents/contact'

/**
 * The string formats the schemas use, checked by the service itself. Importing @elysiajs/openapi replaces
 * TypeBox's global format checkers with ones that build a new Zod schema on every check: a page of 25 needs
 * then spent a third of its time validating ids. These take no allocation and keep the same answers
 * (Zod's RFC 9562 uuid, a real calendar date). Imported after that package, so they are the last word.
 */
const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i

export const SERVICE_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  uuid: (value) => UUID.test(value),
  date: isCalendarDate,
}

for (const [name, check] of Object.entries(SERVICE_FORMATS)) FormatRegistry.Set(name, check)
