import { describe, expect, test } from 'bun:test'
import { RandomIds } from '../../../src/adapters/system/random-ids'
import { FixedClock } from '../../support/fixed-clock'

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The milliseconds a v7 id begins with. */
const timeOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16)

describe('RandomIds', () => {
  const ids = new RandomIds(new FixedClock())

  test('next: a UUID v4, a new one each time', () => {
    const made = Array.from({ length: 1_000 }, () => ids.next())
    for (const id of made) expect(id).toMatch(V4)
    expect(new Set(made).size).toBe(made.length)
  })

  test("nextInTimeOrder: a UUID v7 of the clock's millisecond, each sorting after the one before", () => {
    const clock = new FixedClock()
    const timed = new RandomIds(clock)
    const at = clock.now().getTime()
    const made = Array.from({ length: 1_000 }, () => timed.nextInTimeOrder())
    for (const id of made) {
      expect(id).toMatch(V7)
      // Bun's counter within a millisecond may carry into the next one.
      expect(timeOf(id) - at).toBeOneOf([0, 1])
    }
    expect([...made].sort()).toEqual(made)
    expect(new Set(made).size).toBe(made.length)
  })

  test('nextInTimeOrder: when the clock goes back an hour, the next ids still sort after the earlier ones', () => {
    const clock = new FixedClock()
    const stepped = new RandomIds(clock)
    const before = Array.from({ length: 10 }, () => stepped.nextInTimeOrder())
    clock.advance(-60 * 60_000)
    const after = Array.from({ length: 10 }, () => stepped.nextInTimeOrder())
    expect([...before, ...after].sort()).toEqual([...before, ...after])
  })
})
