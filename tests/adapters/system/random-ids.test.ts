import { describe, expect, test } from 'bun:test'
import { RandomIds } from '../../../src/adapters/system/random-ids'

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The milliseconds a v7 id begins with. */
const timeOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16)

describe('RandomIds', () => {
  const ids = new RandomIds()

  test('next: a UUID v4, a new one each time', () => {
    const made = Array.from({ length: 1_000 }, () => ids.next())
    for (const id of made) expect(id).toMatch(V4)
    expect(new Set(made).size).toBe(made.length)
  })

  test('nextInTimeOrder: a UUID v7 of the current millisecond, each sorting after the one before', () => {
    const before = Date.now()
    const made = Array.from({ length: 1_000 }, () => ids.nextInTimeOrder())
    const after = Date.now()
    for (const id of made) {
      expect(id).toMatch(V7)
      expect(timeOf(id)).toBeGreaterThanOrEqual(before)
      expect(timeOf(id)).toBeLessThanOrEqual(after)
    }
    expect([...made].sort()).toEqual(made)
    expect(new Set(made).size).toBe(made.length)
  })
})
