import { describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Profile, Role } from '../../../src/domain/auth/roles'
import type { Interaction } from '../../../src/domain/needs/interaction'
import { redactInteraction, redactNeed } from '../../../src/domain/needs/redaction'
import { aContact, aNeed } from '../../support/builders'

const ORG = '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d'
const PARTNER = 'b5e3a1c2-7d4f-4e6a-8b9c-0d1e2f3a4b5c'
const actor = (role: Role, profiles: Profile[] = []): Actor => ({
  memberId: 'd7a5c3e4-9f6b-4a8c-8dbe-2f3a4b5c6d7e',
  organizationId: ORG,
  role,
  profiles,
  partnerId: PARTNER,
})
const fields = { description: 'Domestic violence shelter needed', phone: '+15551234567' }
const confidential = aNeed({ organizationId: ORG, partnerId: PARTNER, isConfidential: true, customFields: fields })
const ordinary = aNeed({ organizationId: ORG, partnerId: PARTNER, isConfidential: false, customFields: fields })
const contact = { description: 'Rent help', ...aContact() }
const withContact = aNeed({ organizationId: ORG, partnerId: PARTNER, isConfidential: false, customFields: contact })
const note = (needId: string): Interaction => ({
  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  organizationId: ORG,
  partnerId: PARTNER,
  needId,
  channel: 'note',
  senderIdentifier: 'staff@example.org',
  content: 'Spoke to her at the shelter',
  createdAt: new Date('2026-11-22T09:00:00.000Z'),
})

describe('need redaction', () => {
  test('empties the customFields of a confidential need for a caller without the confidential permission', () => {
    for (const caller of [actor('staff'), actor('partner_agent'), actor('volunteer', ['email_phone_communicator'])]) {
      expect(redactNeed(caller, confidential)).toEqual({ ...confidential, customFields: {} })
    }
  })

  test('shows the customFields of a confidential need to org_admin, partner_admin and pii_reader holders', () => {
    for (const caller of [actor('org_admin'), actor('partner_admin'), actor('staff', ['pii_reader']), actor('volunteer', ['pii_reader'])]) {
      expect(redactNeed(caller, confidential).customFields).toEqual(fields)
    }
  })

  test('leaves a need that is not confidential whole for a caller who may read contact details', () => {
    for (const caller of [actor('org_admin'), actor('partner_admin'), actor('volunteer', ['pii_reader'])]) {
      expect(redactNeed(caller, ordinary)).toEqual(ordinary)
    }
  })

  test('leaves a need without contact keys whole for everyone', () => {
    const plain = aNeed({ organizationId: ORG, partnerId: PARTNER, customFields: { description: 'food', householdSize: 4 } })
    for (const caller of [actor('volunteer'), actor('staff'), actor('partner_agent')]) expect(redactNeed(caller, plain)).toEqual(plain)
  })

  test('does not alter the need it is given', () => {
    redactNeed(actor('staff'), confidential)
    expect(confidential.customFields).toEqual(fields)
    redactNeed(actor('staff'), withContact)
    expect(withContact.customFields).toEqual(contact)
  })
})

describe('contact keys in the customFields of a need', () => {
  test('are hidden from a caller without a PII permission, names and other keys kept', () => {
    for (const caller of [
      actor('staff'),
      actor('partner_agent'),
      actor('volunteer'),
      actor('volunteer', ['intake_staff', 'duplicate_resolver']),
    ]) {
      expect(redactNeed(caller, withContact)).toEqual({
        ...withContact,
        customFields: { description: 'Rent help', firstName: 'Ana', lastName: 'Lopez' },
      })
    }
  })

  test('phone and email are shown to email_phone_communicator, address and date of birth are not', () => {
    expect(redactNeed(actor('partner_agent', ['email_phone_communicator']), withContact).customFields).toEqual({
      description: 'Rent help',
      firstName: 'Ana',
      lastName: 'Lopez',
      phone: '+15551234567',
      email: 'ana@example.org',
    })
  })

  test('are all shown to org_admin, partner_admin and pii_reader holders', () => {
    for (const caller of [actor('org_admin'), actor('partner_admin'), actor('staff', ['pii_reader'])]) {
      expect(redactNeed(caller, withContact)).toEqual(withContact)
    }
  })

  test('of a confidential need are shown whole to pii_reader and not at all to email_phone_communicator', () => {
    const confidentialWithContact = { ...withContact, isConfidential: true }
    expect(redactNeed(actor('staff', ['pii_reader']), confidentialWithContact)).toEqual(confidentialWithContact)
    expect(redactNeed(actor('staff', ['email_phone_communicator']), confidentialWithContact).customFields).toEqual({})
  })
})

describe('interaction redaction', () => {
  test('drops the content of a note on a confidential need for a caller without the confidential permission', () => {
    const redacted = redactInteraction(actor('staff'), confidential, note(confidential.id))
    expect('content' in redacted).toBe(false)
    expect(redacted).toEqual({ ...note(confidential.id), content: undefined })
  })

  test('keeps the content for a caller who may read confidential fields', () => {
    expect(redactInteraction(actor('partner_admin'), confidential, note(confidential.id)).content).toBe('Spoke to her at the shelter')
  })

  test('keeps the content of notes on needs that are not confidential', () => {
    expect(redactInteraction(actor('volunteer'), ordinary, note(ordinary.id)).content).toBe('Spoke to her at the shelter')
  })
})
