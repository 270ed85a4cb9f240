import { describe, expect, test } from 'bun:test'
import { zonedPeriodInstants } from '../../../src/domain/reports/served-report'

// docs/api/needs.md "People served": a period's days are the organization's.
const instants = (from: string, to: string, timeZone: string) => {
  const { since, until } = zonedPeriodInstants({ from, to }, timeZone)
  return [since.toISOString(), until.toISOString()]
}

describe('zonedPeriodInstants', () => {
  test("from the first day's local midnight to the one after the last day, across a change of the clocks", () => {
    expect(instants('2026-11-01', '2026-11-30', 'UTC')).toEqual(['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'])
    // Summer time ends on 1 November in Los Angeles: the period's two ends have different offsets.
    expect(instants('2026-10-01', '2026-11-30', 'America/Los_Angeles')).toEqual(['2026-10-01T07:00:00.000Z', '2026-12-01T08:00:00.000Z'])
    // A day of 23 hours, when summer time begins.
    expect(instants('2026-03-08', '2026-03-08', 'America/New_York')).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'])
    expect(instants('2026-01-01', '2026-01-01', 'Asia/Kathmandu')).toEqual(['2025-12-31T18:15:00.000Z', '2026-01-01T18:15:00.000Z'])
  })

  test('a day whose midnight the clocks skip begins when they show it', () => {
    // Santiago moves its clocks from 00:00 to 01:00 on 6 September 2026.
    expect(instants('2026-09-06', '2026-09-06', 'America/Santiago')).toEqual(['2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z'])
  })
})
