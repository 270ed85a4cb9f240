import { randomUUID } from 'node:crypto'
import type { Actor } from '../../src/domain/auth/actor'
import type { Member } from '../../src/domain/members/member'
import type { Need } from '../../src/domain/needs/need'
import type { Organization } from '../../src/domain/organizations/organization'
import type { Partner } from '../../src/domain/partners/partner'

// Small builders with good defaults, so a test shows only what matters to it.
const AT = new Date('2026-11-22T09:00:00.000Z')

export function anOrganization(overrides: Partial<Organization> = {}): Organization {
  const id = overrides.id ?? randomUUID()
  return { id, name: 'Food Bank', slug: `org-${id.slice(0, 8)}`, maxConcurrency: 5, createdAt: AT, ...overrides }
}

export function aPartner(overrides: Partial<Partner> & Pick<Partner, 'organizationId'>): Partner {
  return { id: randomUUID(), name: 'Pantry', slaHours: 48, isArchived: false, isDefault: false, createdAt: AT, ...overrides }
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
    referenceNumber: `REQ-${Math.floor(Math.random() * 1e9)}`,
    ...overrides,
  }
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
