import { describe, expect, test } from 'bun:test'
import { scopeOf, seesPartner, type Actor } from '../../../src/domain/auth/actor'
import { PARTNER_ROLES, type Role } from '../../../src/domain/auth/roles'

const ORG = '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d'
const PARTNER = 'b5e3a1c2-7d4f-4e6a-8b9c-0d1e2f3a4b5c'
const OTHER = 'c6f4b2d3-8e5a-4f7b-9cad-1e2f3a4b5c6d'
const actor = (role: Role, partnerId?: string): Actor => ({
  memberId: 'd7a5c3e4-9f6b-4a8c-8dbe-2f3a4b5c6d7e',
  organizationId: ORG,
  role,
  profiles: [],
  ...(partnerId ? { partnerId } : {}),
})

describe('scope (docs/api/access.md "Permissions")', () => {
  test('org_admin and staff see the whole organization, even when they have a partner', () => {
    for (const a of [actor('org_admin'), actor('staff'), actor('org_admin', PARTNER), actor('staff', PARTNER)]) {
      expect(scopeOf(a)).toEqual({ kind: 'organization' })
      expect(seesPartner(a, OTHER)).toBe(true)
    }
  })

  test('partner_admin, partner_agent and volunteer are confined to their own partner', () => {
    for (const role of PARTNER_ROLES) {
      expect(scopeOf(actor(role, PARTNER))).toEqual({ kind: 'partner', partnerId: PARTNER })
      expect(seesPartner(actor(role, PARTNER), PARTNER)).toBe(true)
      expect(seesPartner(actor(role, PARTNER), OTHER)).toBe(false)
    }
  })

  test('a partner role without a partner sees no partner, never the whole organization', () => {
    for (const role of PARTNER_ROLES) {
      expect(scopeOf(actor(role))).toEqual({ kind: 'none' })
      expect(seesPartner(actor(role), PARTNER)).toBe(false)
    }
  })
})
