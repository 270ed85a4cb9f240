import { describe, expect, test } from 'bun:test'
import { SystemClock } from '../../../src/adapters/system/system-clock'

/** A machine's two clocks: the wall clock, which an operator or NTP may step, and the monotonic one. */
function machine(start = Date.parse('2026-11-22T09:00:00.000Z')) {
  const state = { wall: start, elapsed: 1_000 }
  return {
    clock: new SystemClock(
      () => state.wall,
      () => state.elapsed,
    ),
    /** Time passes: both clocks move. */
    pass(ms: number) {
      state.wall += ms
      state.elapsed += ms
    },
    /** The wall clock alone is set. */
    step(ms: number) {
      state.wall += ms
    },
  }
}

describe('SystemClock', () => {
  test('starts at the wall clock and moves with elapsed time', () => {
    const m = machine()
    expect(m.clock.now().toISOString()).toBe('2026-11-22T09:00:00.000Z')
    m.pass(1_500)
    expect(m.clock.now().toISOString()).toBe('2026-11-22T09:00:01.500Z')
  })

  test('a step of the wall clock, forward or back, moves it by nothing', () => {
    const m = machine()
    m.pass(1_000)
    m.step(5 * 60_000)
    expect(m.clock.now().toISOString()).toBe('2026-11-22T09:00:01.000Z')
    m.step(-65 * 60_000)
    m.pass(1_000)
    expect(m.clock.now().toISOString()).toBe('2026-11-22T09:00:02.000Z')
  })

  test("follows the database's clock from the reading on", () => {
    const m = machine()
    m.clock.follow(new Date('2026-11-22T08:59:30.000Z'))
    m.pass(2_000)
    expect(m.clock.now().toISOString()).toBe('2026-11-22T08:59:32.000Z')
  })
})
