import { describe, expect, test } from 'bun:test'
import { FormatRegistry } from '@sinclair/typebox'
// The whole HTTP adapter, with every library it loads (@elysiajs/openapi replaces format checkers on import).
import '../../../src/adapters/http/app'
import { SERVICE_FORMATS } from '../../../src/adapters/http/formats'

describe('string formats of the schemas', () => {
  test('are the service’s own once the app is loaded, whatever its libraries register', () => {
    for (const [name, check] of Object.entries(SERVICE_FORMATS)) expect(FormatRegistry.Get(name)).toBe(check)
  })

  test('uuid: the RFC 9562 form only', () => {
    const uuid = SERVICE_FORMATS.uuid!
    expect(uuid(crypto.randomUUID())).toBe(true)
    expect(uuid(crypto.randomUUID().toUpperCase())).toBe(true)
    expect(uuid('00000000-0000-0000-0000-000000000000')).toBe(true)
    for (const bad of ['', 'REQ-1001', `urn:uuid:${crypto.randomUUID()}`, '12345678-1234-0234-8234-123456789012', '12345678-1234-4234-c234-123456789012', `${crypto.randomUUID()}0`]) {
      expect(uuid(bad)).toBe(false)
    }
  })

  test('date: a real calendar date, YYYY-MM-DD', () => {
    const date = SERVICE_FORMATS.date!
    expect(date('2024-02-29')).toBe(true)
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00:00Z', '']) expect(date(bad)).toBe(false)
  })
})
