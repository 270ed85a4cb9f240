import { describe, expect, test } from 'bun:test'
import { advances, consentErrors, consentHolds, mayMove, sharedDetails } from '../../../src/domain/referrals/referral'

const now = new Date('2026-03-01T12:00:00Z')
const consent = {
  obtainedAt: new Date('2026-03-01T11:00:00Z'),
  method: 'verbal',
  expiresAt: new Date('2026-06-01T00:00:00Z'),
  fields: ['firstName', 'phone'],
}

describe('consent', () => {
  test('is required, not expired, and names contact fields only', () => {
    expect(consentErrors(consent, now)).toEqual([])
    expect(consentErrors(undefined, now)).toEqual([{ path: '/consent', message: 'is required' }])
    expect(consentErrors({ ...consent, expiresAt: now }, now)).toEqual([{ path: '/consent/expiresAt', message: 'has expired' }])
    expect(consentErrors({ ...consent, fields: ['firstName', 'ssn'] }, now).map((e) => e.path)).toEqual(['/consent/fields'])
    expect(consentErrors({ ...consent, method: 'telepathy' }, now).map((e) => e.path)).toEqual(['/consent/method'])
  })

  test('holds until it expires or is revoked', () => {
    const given = { consent: { ...consent, method: 'verbal' as const, fields: ['firstName' as const] } }
    expect(consentHolds(given, now)).toBe(true)
    expect(consentHolds({ ...given, consentRevokedAt: now }, now)).toBe(false)
    expect(consentHolds(given, consent.expiresAt)).toBe(false)
    expect(consentHolds({}, now)).toBe(false)
  })

  test('only the consented fields that hold a value travel', () => {
    expect(sharedDetails({ firstName: 'Ana', lastName: 'Ruiz', phone: '' }, ['firstName', 'phone'])).toEqual({ firstName: 'Ana' })
  })
})

describe('statuses', () => {
  test('a member moves a referral only along the table', () => {
    expect(mayMove('received', 'accepted')).toBe(true)
    expect(mayMove('requested', 'accepted')).toBe(false)
    expect(mayMove('accepted', 'in-progress')).toBe(true)
    expect(mayMove('in-progress', 'completed')).toBe(true)
    expect(mayMove('completed', 'cancelled')).toBe(false)
  })

  test('a status heard late changes nothing: statuses only move forward, and nothing follows a final one', () => {
    expect(advances('requested', 'accepted')).toBe(true)
    expect(advances('completed', 'accepted')).toBe(false)
    expect(advances('in-progress', 'accepted')).toBe(false)
    expect(advances('accepted', 'rejected')).toBe(true)
    expect(advances('cancelled', 'completed')).toBe(false)
  })
})
