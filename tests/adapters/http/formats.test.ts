import { describe, expect, test } from 'bun:test'
import { FormatRegistry } from '@sinclair/typebox'
// The whole HTTP adapter, with every library it loads (@elysiajs/openapi replaces format checkers on import).
import '../../../src/adapters/http/app'
import { isIsoInstant, SERVICE_FORMATS } from '../../../src/adapters/http/formats'

describe('string formats of the schemas', () => {
  test('are the service’s own once the app is loaded, whatever its libraries register', () => {
    for (const [name, check] of Object.entries(SERVICE_FORMATS)) expect(FormatRegistry.Get(name)).toBe(check)
  })

  test('uuid: the RFC 9562 form only', () => {
    const uuid = SERVICE_FORMATS.uuid!
    expect(uuid(crypto.randomUUID())).toBe(true)
    expect(uuid(crypto.randomUUID().toUpperCase())).toBe(true)
    expect(uuid('00000000-0000-0000-0000-000000000000')).toBe(true)
    for (const bad of [
      '',
      'REQ-1001',
      `urn:uuid:${crypto.randomUUID()}`,
      '12345678-1234-0234-8234-123456789012',
      '12345678-1234-4234-c234-123456789012',
      `${crypto.randomUUID()}0`,
    ]) {
      expect(uuid(bad)).toBe(false)
    }
  })

  test('date: a real calendar date, YYYY-MM-DD', () => {
    const date = SERVICE_FORMATS.date!
    expect(date('2024-02-29')).toBe(true)
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00:00Z', '']) expect(date(bad)).toBe(false)
  })

  test('date-time: the times the service writes, and whatever Elysia took before', () => {
    const dateTime = SERVICE_FORMATS['date-time']!
    for (const good of [
      '2024-02-29T23:59:59.999Z',
      new Date().toISOString(),
      '0001-01-01T00:00:00.000Z',
      '2026-01-31T09:30:00Z',
      '2026-01-31T09:30:00+02:00',
      '2026-01-31T09:30Z',
    ]) {
      expect(dateTime(good)).toBe(true)
    }
    for (const bad of ['', 'yesterday', '2026-13-01T00:00:00.000Z', '2026-01-00T00:00:00.000Z', '2026-01-31T09:30:60.000Z'])
      expect(dateTime(bad)).toBe(false)
  })

  test('date-time: the quick reading answers only for real instants in Date#toISOString form', () => {
    expect(isIsoInstant('2024-02-29T00:00:00.000Z')).toBe(true)
    expect(isIsoInstant('2000-02-29T00:00:00.000Z')).toBe(true)
    expect(isIsoInstant('2026-12-31T23:59:59.999Z')).toBe(true)
    for (const other of [
      '2023-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T00:60:00.000Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.000+00:00',
      '+275760-09-13T00:00:00.000Z',
    ]) {
      expect(isIsoInstant(other)).toBe(false)
    }
  })
})
