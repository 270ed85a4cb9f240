import { describe, expect, test } from 'bun:test'
import { offsetOf, PAGE_LIMIT } from '../../../src/domain/shared/page'

describe('paging (docs/api/conventions.md "Lists")', () => {
  test('pages start at 1', () => {
    expect(offsetOf({ page: 1, limit: 25 })).toBe(0)
    expect(offsetOf({ page: 3, limit: 10 })).toBe(20)
  })

  test('limit defaults to 25 and is at most 100', () => {
    expect(PAGE_LIMIT).toEqual({ default: 25, max: 100 })
  })
})
