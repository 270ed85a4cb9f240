import { describe, expect, test } from 'bun:test'
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../../../src/domain/shared/nesting'

function nested(levels: number, leaf: unknown = 1, asArray = true): unknown {
  let value = leaf
  for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value }
  return value
}

describe('nestsDeeperThan', () => {
  test('scalars and flat values are never too deep', () => {
    for (const value of [null, 1, 'text', true, [], {}, [1, 2], { a: 1 }]) expect(nestsDeeperThan(value, 1)).toBe(false)
  })

  test('counts levels of arrays and objects alike, exactly at the limit', () => {
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH), MAX_NESTING_DEPTH)).toBe(false)
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH + 1), MAX_NESTING_DEPTH)).toBe(true)
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH, 1, false), MAX_NESTING_DEPTH)).toBe(false)
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH + 1, 1, false), MAX_NESTING_DEPTH)).toBe(true)
  })

  test('finds the one deep branch among shallow ones', () => {
    expect(nestsDeeperThan({ a: 1, b: [1, 2, { c: nested(2) }], d: 'x' }, 4)).toBe(true)
    expect(nestsDeeperThan({ a: 1, b: [1, 2, { c: nested(1) }], d: 'x' }, 4)).toBe(false)
  })

  test('takes a million levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(1_000_000))).toBe(true)
  })

  test('a cycle is too deep rather than endless', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(nestsDeeperThan(cycle)).toBe(true)
  })
})
