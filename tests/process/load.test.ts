import { afterAll, describe, expect, test } from 'bun:test'
import { postgresAvailable } from '../support/postgres'
import { killAllServers } from './cli-process'
import { describeLoad, runLoad, withinMemoryAllowance } from './load'
import type { DatabaseKind } from './workload'

// docs/reliability.md "Load": 64 clients at once for 10 s (the first 2 s warm up) against the real
// `intake serve`. Every answer is 2xx or 429 (anonymous intake's limit), every acknowledged write is
// readable afterwards, and memory stays within RSS_ALLOWANCE of what it was after the warm-up.
// `npm run soak` runs the same for 10 minutes.
afterAll(() => killAllServers())

async function holdsUnderLoad(database: DatabaseKind): Promise<void> {
  const figures = await runLoad(database, { warmUpSeconds: 2, seconds: 8 })
  console.log(describeLoad(figures))
  expect(figures.unexpected).toEqual({})
  expect(figures.acknowledgedWrites).toBeGreaterThan(0)
  expect(figures.statuses['429']).toBeGreaterThan(0)
  expect(figures.lostWrites).toBe(0)
  expect(withinMemoryAllowance(figures), describeLoad(figures)).toBe(true)
}

describe('load', () => {
  test('SQLite: 64 clients for 10 s get only 2xx and 429, lose no write, and memory stays flat', () => holdsUnderLoad('sqlite'), 60_000)

  test.skipIf(!postgresAvailable())(
    'PostgreSQL: 64 clients for 10 s get only 2xx and 429, lose no write, and memory stays flat',
    () => holdsUnderLoad('postgres'),
    60_000,
  )
})
