import { describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import { PROFILES, ROLES, type Profile, type Role } from '../../../src/domain/auth/roles'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import type { ContactField } from '../../../src/domain/constituents/contact'
import { hiddenContactFields, withoutHiddenContact } from '../../../src/domain/constituents/redaction'
import { aContact } from '../../support/builders'
import { HIDEABLE_FIELDS, PERSONAL_FIELDS } from '../../support/contact-fields'

const actor = (role: Role, profiles: Profile[] = []): Actor => ({
  memberId: 'd7a5c3e4-9f6b-4a8c-8dbe-2f3a4b5c6d7e',
  organizationId: '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d',
  role,
  profiles,
})

// Who may read which field, as documented (tests/support/contact-fields.ts).
const ALL_PII: ContactField[] = HIDEABLE_FIELDS
const ADDRESS_AND_BIRTH: ContactField[] = PERSONAL_FIELDS

const constituent: Constituent = {
  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  organizationId: '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d',
  householdId: 'b5e3a1c2-7d4f-4e6a-8b9c-0d1e2f3a4b5c',
  ...aContact(),
  createdAt: new Date('2026-11-22T09:00:00.000Z'),
  updatedAt: new Date('2026-11-22T09:00:00.000Z'),
}

describe('hiddenContactFields', () => {
  test('org_admin and partner_admin see everything, with or without profiles', () => {
    for (const role of ['org_admin', 'partner_admin'] as const) {
      expect(hiddenContactFields(actor(role))).toEqual([])
      for (const profile of PROFILES) expect(hiddenContactFields(actor(role, [profile]))).toEqual([])
    }
  })

  test('pii_reader shows everything to any role', () => {
    for (const role of ROLES) expect(hiddenContactFields(actor(role, ['pii_reader']))).toEqual([])
  })

  test('email_phone_communicator shows phone and email but still hides address and date of birth', () => {
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      expect([...hiddenContactFields(actor(role, ['email_phone_communicator']))].sort()).toEqual([...ADDRESS_AND_BIRTH].sort())
    }
  })

  test('staff, partner_agent and volunteer without those profiles see none of phone, email, address, date of birth', () => {
    const otherProfiles = PROFILES.filter((p) => p !== 'pii_reader' && p !== 'email_phone_communicator')
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      expect([...hiddenContactFields(actor(role))].sort()).toEqual([...ALL_PII].sort())
      expect([...hiddenContactFields(actor(role, [...otherProfiles]))].sort()).toEqual([...ALL_PII].sort())
    }
  })

  test('never hides the names', () => {
    for (const role of ROLES) {
      for (const profiles of [[], ...PROFILES.map((p) => [p])] as Profile[][]) {
        expect(hiddenContactFields(actor(role, profiles))).not.toContain('firstName')
        expect(hiddenContactFields(actor(role, profiles))).not.toContain('lastName')
      }
    }
  })
})

describe('withoutHiddenContact', () => {
  test('answers the record itself to a caller who may read everything', () => {
    expect(withoutHiddenContact(actor('org_admin'), constituent)).toBe(constituent)
  })

  test('drops phone, email, address and date of birth, keeping names and every other field', () => {
    expect(withoutHiddenContact(actor('staff'), constituent)).toEqual({
      id: constituent.id,
      organizationId: constituent.organizationId,
      householdId: constituent.householdId,
      firstName: 'Ana',
      lastName: 'Lopez',
      createdAt: constituent.createdAt,
      updatedAt: constituent.updatedAt,
    })
  })

  test('keeps phone and email for email_phone_communicator', () => {
    const seen = withoutHiddenContact(actor('partner_agent', ['email_phone_communicator']), constituent)
    expect(seen.phone).toBe('+15551234567')
    expect(seen.email).toBe('ana@example.org')
    for (const field of ADDRESS_AND_BIRTH) expect(field in seen).toBe(false)
  })

  test('works on any record, such as customFields, leaving keys that are not contact fields', () => {
    const customFields: Record<string, unknown> = { description: 'food', phone: '+15551234567', firstName: 'Ana', householdSize: 3 }
    expect(withoutHiddenContact(actor('volunteer'), customFields)).toEqual({
      description: 'food',
      firstName: 'Ana',
      householdSize: 3,
    })
  })

  test('does not alter the record it is given', () => {
    const copy = { ...constituent }
    withoutHiddenContact(actor('staff'), constituent)
    expect(constituent).toEqual(copy)
  })
})
