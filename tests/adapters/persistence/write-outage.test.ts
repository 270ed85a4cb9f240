import { describe, expect, test } from 'bun:test'
import { WRITE_OUTAGE_HOLD_MS, WriteOutage } from '../../../src/adapters/persistence/shared/write-outage'

// docs/reliability.md "The database out of disk or connections": readiness is down while writes fail, up
// again at the next commit, or by itself after the hold when no write comes to prove it.
const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })

describe('writes failing', () => {
  test('an outage makes them fail; the next commit ends it', () => {
    const outage = new WriteOutage(() => 0)
    expect(outage.failing).toBe(false)
    outage.failed(full)
    expect(outage.failing).toBe(true)
    outage.committed()
    expect(outage.failing).toBe(false)
  })

  test('a refused statement (a rule of the database), a busy file or a deadlock leave writing as it was', () => {
    const outage = new WriteOutage(() => 0)
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_BUSY', '40P01']) outage.failed(Object.assign(new Error(code), { code }))
    expect(outage.failing).toBe(false)
  })

  test('without another failure, it lapses after the hold, so the instance is tried again', () => {
    let now = 1000
    const outage = new WriteOutage(() => now)
    outage.failed(full)
    now += WRITE_OUTAGE_HOLD_MS - 1
    expect(outage.failing).toBe(true)
    now += 1
    expect(outage.failing).toBe(false)
  })
})
