import { describe, expect, test } from 'bun:test'
import {
  changesBetween,
  CUSTOM_FIELDS_LIMITS,
  customFieldsTooLarge,
  dueDateFor,
  FIRST_REFERENCE_NUMBER,
  formatReferenceNumber,
  INITIAL_NEED_STATUS,
  isOpen,
  looksLikeReferenceNumber,
  normalizeReferenceNumber,
} from '../../../src/domain/needs/need'
import { aNeed } from '../../support/builders'

const ORG = '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d'
const PARTNER = 'b5e3a1c2-7d4f-4e6a-8b9c-0d1e2f3a4b5c'
const OTHER_PARTNER = 'c6f4b2d3-8e5a-4f7b-9cad-1e2f3a4b5c6d'
const MEMBER = 'd7a5c3e4-9f6b-4a8c-8dbe-2f3a4b5c6d7e'

describe('need rules', () => {
  test('a need starts as NEW', () => {
    expect(INITIAL_NEED_STATUS).toBe('NEW')
  })

  test('every status but RESOLVED is open', () => {
    expect(isOpen('NEW')).toBe(true)
    expect(isOpen('IN_PROGRESS')).toBe(true)
    expect(isOpen('PENDING_INTERNAL')).toBe(true)
    expect(isOpen('PENDING_CLIENT')).toBe(true)
    expect(isOpen('ESCALATED')).toBe(true)
    expect(isOpen('RESOLVED')).toBe(false)
  })

  describe('due date', () => {
    test('is the creation time plus the SLA hours', () => {
      expect(dueDateFor(new Date('2026-11-22T09:00:00.000Z'), 48).toISOString()).toBe('2026-11-24T09:00:00.000Z')
    })

    test('keeps minutes and milliseconds, and counts hours across month and year ends', () => {
      expect(dueDateFor(new Date('2026-12-31T23:30:15.250Z'), 1).toISOString()).toBe('2027-01-01T00:30:15.250Z')
      expect(dueDateFor(new Date('2026-01-01T00:00:00.000Z'), 8760).toISOString()).toBe('2027-01-01T00:00:00.000Z')
    })
  })

  describe('reference numbers', () => {
    test('sequences start at 1001', () => {
      expect(FIRST_REFERENCE_NUMBER).toBe(1001)
    })

    test("use the organization's short code as prefix", () => {
      expect(formatReferenceNumber('FOOD', 1001)).toBe('FOOD-1001')
    })

    test('use REQ when the organization has no short code', () => {
      expect(formatReferenceNumber(undefined, 1002)).toBe('REQ-1002')
    })

    test('are looked up upper-cased and trimmed, so they are case-insensitive', () => {
      expect(normalizeReferenceNumber('req-1001')).toBe('REQ-1001')
      expect(normalizeReferenceNumber('  Food-1234 ')).toBe('FOOD-1234')
    })

    test('have a recognizable form: every number formatted passes, other text does not', () => {
      for (const shortCode of [undefined, 'FOOD', 'ABCDEF'])
        expect(looksLikeReferenceNumber(formatReferenceNumber(shortCode, 1001))).toBe(true)
      for (const text of ['', 'NONSENSE', 'REQ-', '-1001', 'REQ-10A1', 'REQ 1001', 'REQ-1001\u0000', '\u0000'])
        expect(looksLikeReferenceNumber(text)).toBe(false)
    })
  })

  describe('history entries (changesBetween)', () => {
    const before = aNeed({ organizationId: ORG, partnerId: PARTNER, status: 'NEW', isConfidential: false })

    test('are none when no tracked field changes', () => {
      const after = { ...before, customFields: { note: 'changed' }, updatedAt: new Date() }
      expect(changesBetween(before, after)).toEqual([])
    })

    test('record status, assignee, partner and confidentiality, each from and to', () => {
      const after = { ...before, status: 'IN_PROGRESS' as const, assignedTo: MEMBER, partnerId: OTHER_PARTNER, isConfidential: true }
      expect(changesBetween(before, after)).toEqual([
        { field: 'status', from: 'NEW', to: 'IN_PROGRESS' },
        { field: 'assignedTo', from: undefined, to: MEMBER },
        { field: 'partnerId', from: PARTNER, to: OTHER_PARTNER },
        { field: 'isConfidential', from: 'false', to: 'true' },
      ])
    })

    test('record only the fields that changed', () => {
      expect(changesBetween(before, { ...before, isConfidential: true })).toEqual([{ field: 'isConfidential', from: 'false', to: 'true' }])
    })

    test('record an assignee removed as a change to nothing', () => {
      const assigned = { ...before, assignedTo: MEMBER }
      expect(changesBetween(assigned, { ...assigned, assignedTo: undefined })).toEqual([
        { field: 'assignedTo', from: MEMBER, to: undefined },
      ])
    })
  })

  describe('customFields size', () => {
    const ofJsonBytes = (bytes: number) => ({ a: 'x'.repeat(bytes - '{"a":""}'.length) })

    test('is at most 16 KiB as JSON and 50 keys of at most 100 characters', () => {
      expect(CUSTOM_FIELDS_LIMITS).toEqual({ maxBytes: 16_384, maxKeys: 50, maxKeyLength: 100 })
    })

    test('accepts exactly 16 KiB of JSON', () => {
      expect(JSON.stringify(ofJsonBytes(16_384)).length).toBe(16_384)
      expect(customFieldsTooLarge(ofJsonBytes(16_384))).toBe(false)
    })

    test('refuses one byte more than 16 KiB', () => {
      expect(customFieldsTooLarge(ofJsonBytes(16_385))).toBe(true)
    })

    test('counts UTF-8 bytes, not characters', () => {
      const accented = { a: 'é'.repeat(9_000) }
      expect(JSON.stringify(accented).length).toBeLessThan(16_384)
      expect(customFieldsTooLarge(accented)).toBe(true)
    })

    test('accepts an empty object', () => {
      expect(customFieldsTooLarge({})).toBe(false)
    })
  })
})
