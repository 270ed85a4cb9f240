import { describe, expect, test } from 'bun:test'
import { withoutSecrets } from '../../../src/adapters/messaging/provider-failure'

describe('withoutSecrets', () => {
  test('removes every whole secret, longest first', () => {
    expect(
      withoutSecrets('auth failed for smtp://mailer:hunter22@host with hunter22', ['smtp://mailer:hunter22@host', 'mailer', 'hunter22']),
    ).toBe('auth failed for *** with ***')
  })

  test('leaves words whole: a short secret goes only where it stands alone, a tiny one never', () => {
    const reason = 'Connection closed unexpectedly by expect'
    expect(withoutSecrets(reason, ['un', 'nex', 'expect'])).toBe('Connection closed unexpectedly by ***')
  })

  test('removes a long secret also inside a longer run of characters', () => {
    expect(withoutSecrets('token=xxSG.abcdefghijklmnopxx', ['SG.abcdefghijklmnop'])).toBe('token=xx***xx')
  })

  test('a secret with characters special to patterns is removed as written', () => {
    expect(withoutSecrets('bad key p@ss:Word-(SMTP)*9 given', ['p@ss:Word-(SMTP)*9'])).toBe('bad key *** given')
  })
})
