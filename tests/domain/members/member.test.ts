import { describe, expect, test } from 'bun:test'
import { MIN_PASSWORD_LENGTH, normalizeEmail } from '../../../src/domain/members/member'

describe('member rules', () => {
  test('emails are compared trimmed and lower-cased', () => {
    expect(normalizeEmail('  Ana.Lopez@Example.ORG ')).toBe('ana.lopez@example.org')
  })

  test('passwords have at least 12 characters (docs/api/access.md "Tokens")', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12)
  })
})
