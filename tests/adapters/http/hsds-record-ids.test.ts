import { describe, expect, test } from 'bun:test'
import { nestedRecordId, uuidV5 } from '../../../src/adapters/http/hsds-record-ids'

// docs/api/services.md "Identifiers of nested records".
const SERVICE = '0c2f5c2a-3f6e-4b8e-9a37-1d2c3b4a5f60'

describe('the ids of a service’s nested records', () => {
  test('are UUIDs version 5 as RFC 9562 computes them (its example: the DNS namespace and www.example.com)', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2')
  })

  test('are the same at every call, and differ by service, kind and key', () => {
    const ids = [
      nestedRecordId(SERVICE, { kind: 'phone' }),
      nestedRecordId(SERVICE, { kind: 'address' }),
      nestedRecordId(SERVICE, { kind: 'language', tag: 'es-MX' }),
      nestedRecordId(SERVICE, { kind: 'schedule', index: 0 }),
      nestedRecordId(SERVICE, { kind: 'schedule', index: 1 }),
      nestedRecordId(SERVICE, { kind: 'attribute', vocabulary: 'open-eligibility', code: '1102' }),
      nestedRecordId(crypto.randomUUID(), { kind: 'phone' }),
    ]
    expect(new Set(ids).size).toBe(ids.length)
    expect(nestedRecordId(SERVICE, { kind: 'language', tag: 'es-MX' })).toBe(ids[2]!)
    expect(nestedRecordId(SERVICE, { kind: 'phone' })).toBe(uuidV5(SERVICE, 'phone'))
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
