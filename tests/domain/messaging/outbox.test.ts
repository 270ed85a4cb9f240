import { describe, expect, test } from 'bun:test'
import { MAX_ATTEMPTS, retryDelayMs } from '../../../src/domain/messaging/outbox'

describe('outbox retries (docs/api/organization.md "SMS")', () => {
  test('a message is tried at most five times', () => {
    expect(MAX_ATTEMPTS).toBe(5)
  })

  test('the waits after the 1st to 4th failure are 2, 4, 8 and 16 seconds', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([2000, 4000, 8000, 16000])
  })
})
