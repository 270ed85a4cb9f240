import { randomUUID } from 'node:crypto'
import type { AuditEvent } from '../../src/domain/audit/audit-event'
import type { Actor } from '../../src/domain/auth/actor'
import type { Constituent, Household } from '../../src/domain/constituents/constituent'
import type { ContactDetails } from '../../src/domain/constituents/contact'
import type { HouseholdMatch } from '../../src/domain/constituents/household-match'
import type { Member } from '../../src/domain/members/member'
import type { UnnumberedNeed } from '../../src/application/ports/repositories/need-repository'
import type { Interaction } from '../../src/domain/needs/interaction'
import type { Need } from '../../src/domain/needs/need'
import type { Organization } from '../../src/domain/organizations/organization'
import type { Partner } from '../../src/domain/partners/partner'
import type { WebhookEndpoint } from '../../src/domain/webhooks/webhook'
import { ALL_FIELDS, DOCUMENTED_FIELDS } from './contact-fields'

// Small builders with good defaults, so a test shows only what matters to it.
const AT = new Date('2026-11-22T09:00:00.000Z')

export function anOrganization(overrides: Partial<Organization> = {}): Organization {
  const id = overrides.id ?? randomUUID()
  return { id, name: 'Food Bank', slug: `org-${id.slice(0, 8)}`, maxConcurrency: 5, defaultCountry: 'US', createdAt: AT, ...overrides }
}

export function aPartner(overrides: Partial<Partner> & Pick<Partner, 'organizationId'>): Partner {
  return { id: randomUUID(), name: 'Pantry', slaHours: 48, isArchived: false, isDefault: false, createdAt: AT, ...overrides }
}

export function aWebhookEndpoint(overrides: Partial<WebhookEndpoint> & Pick<WebhookEndpoint, 'organizationId'>): WebhookEndpoint {
  return {
    id: randomUUID(),
    url: 'https://hooks.example.org/intake',
    events: ['need.created'],
    sealedSecret: 'sealed',
    enabled: true,
    consecutiveFailures: 0,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  }
}

export function aMember(overrides: Partial<Member> & Pick<Member, 'organizationId'>): Member {
  const id = overrides.id ?? randomUUID()
  return { id, email: `${id.slice(0, 8)}@example.org`, role: 'staff', profiles: [], isConfirmed: true, createdAt: AT, ...overrides }
}

export function aNeed(overrides: Partial<Need> & Pick<Need, 'organizationId' | 'partnerId'>): Need {
  return {
    id: randomUUID(),
    status: 'NEW',
    customFields: {},
    isConfidential: false,
    createdAt: AT,
    updatedAt: AT,
    dueDateSetByHand: false,
    referenceNumber: `REQ-${Math.floor(Math.random() * 1e9)}`,
    ...overrides,
  }
}

/** A need as intake makes it: its reference number is the store's to take (`insertMany`). */
export function aNewNeed(overrides: Partial<UnnumberedNeed> & Pick<Need, 'organizationId' | 'partnerId'>): UnnumberedNeed {
  const { referenceNumber: _number, ...need } = aNeed(overrides)
  return need
}

/** Every contact field of one person, each valid: what a form filled in full gives. */
const documentedContact = (which: 'value' | 'other') =>
  Object.fromEntries(ALL_FIELDS.map((field) => [field, DOCUMENTED_FIELDS[field][which]])) as Required<ContactDetails>

/** Every field with a valid value (tests/support/contact-fields.ts): the full contact, overridden where given. */
export function aContact(overrides: ContactDetails = {}): Required<ContactDetails> {
  return { ...documentedContact('value'), ...overrides }
}

/** Another full contact, differing from aContact's in every field. */
export function anotherContact(overrides: ContactDetails = {}): Required<ContactDetails> {
  return { ...documentedContact('other'), ...overrides }
}

export function aHousehold(overrides: Partial<Household> & Pick<Household, 'organizationId'>): Household {
  return { id: randomUUID(), createdAt: AT, ...overrides }
}

/** A constituent with no contact field at all unless given. */
export function aConstituent(overrides: Partial<Constituent> & Pick<Constituent, 'organizationId' | 'householdId'>): Constituent {
  return { id: randomUUID(), createdAt: AT, updatedAt: AT, ...overrides }
}

export function aHouseholdMatch(
  overrides: Partial<HouseholdMatch> & Pick<HouseholdMatch, 'organizationId' | 'constituentId' | 'candidateConstituentId'>,
): HouseholdMatch {
  return { id: randomUUID(), reason: 'same phone', status: 'OPEN', createdAt: AT, ...overrides }
}

/** A note unless told otherwise. */
export function anInteraction(overrides: Partial<Interaction> & Pick<Interaction, 'organizationId'>): Interaction {
  return { id: randomUUID(), channel: 'note', senderIdentifier: 'staff@example.org', createdAt: AT, ...overrides }
}

/** An update of a need unless told otherwise. */
export function anAuditEvent(overrides: Partial<AuditEvent> & Pick<AuditEvent, 'organizationId'>): AuditEvent {
  return { id: randomUUID(), action: 'update', recordType: 'need', recordId: randomUUID(), at: AT, ...overrides }
}

export function actorFor(member: Member): Actor {
  return {
    memberId: member.id,
    organizationId: member.organizationId,
    role: member.role,
    profiles: member.profiles,
    ...(member.partnerId ? { partnerId: member.partnerId } : {}),
  }
}

/** A file's bytes as an import reads them: in pieces of `piece` bytes, which may split a character or a quoted field. */
export async function* aFile(text: string | Uint8Array, piece = 64 * 1024): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text
  for (let at = 0; at < bytes.length; at += piece) yield bytes.slice(at, at + piece)
}

/** A last name no other test uses, so a search by it finds only what the test made. */
export const uniqueName = () =>
  `Zq${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 10)}`

let phoneCounter = 0
/** A phone number no other test uses. */
export const uniquePhone = () => `+1555${String(3_000_000 + ++phoneCounter).padStart(7, '0')}`

/** An email address no other test uses. */
export const uniqueEmail = () => `${uniqueName().toLowerCase()}@example.org`
