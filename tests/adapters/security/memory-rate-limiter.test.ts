import { describe, expect, test } from 'bun:test'
import { MemoryRateLimiter } from '../../../src/adapters/security/memory-rate-limiter'
import { FixedClock } from '../../support/fixed-clock'

// docs/api/access.md "Rate limits": fixed one-minute windows per key.
describe('MemoryRateLimiter', () => {
  test('counts down what is left, refuses past the limit, and tells when the window ends', () => {
    const clock = new FixedClock('2026-11-22T09:00:00.000Z')
    const limiter = new MemoryRateLimiter(2, clock)
    expect([limiter.limit, limiter.windowSeconds]).toEqual([2, 60])
    clock.advance(15_500)
    expect(limiter.hit('a')).toEqual({ remaining: 1, resetSeconds: 45, exceeded: false })
    expect(limiter.hit('a')).toEqual({ remaining: 0, resetSeconds: 45, exceeded: false })
    expect(limiter.hit('a')).toEqual({ remaining: 0, resetSeconds: 45, exceeded: true })
    expect(limiter.hit('b')).toEqual({ remaining: 1, resetSeconds: 45, exceeded: false })
  })

  test('a new window gives the whole quota back', () => {
    const clock = new FixedClock('2026-11-22T09:00:59.900Z')
    const limiter = new MemoryRateLimiter(1, clock)
    expect(limiter.hit('a')).toEqual({ remaining: 0, resetSeconds: 1, exceeded: false })
    expect(limiter.hit('a').exceeded).toBe(true)
    clock.advance(100)
    expect(limiter.hit('a')).toEqual({ remaining: 0, resetSeconds: 60, exceeded: false })
  })
})
