import { describe, expect, test } from 'bun:test'
import { partnerScopeOf, type Actor } from '../../../src/domain/auth/actor'
import type { Role } from '../../../src/domain/auth/roles'

const ORG = '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d'
const PARTNER = 'b5e3a1c2-7d4f-4e6a-8b9c-0d1e2f3a4b5c'
const actor = (role: Role, partnerId?: string): Actor => ({
  memberId: 'd7a5c3e4-9f6b-4a8c-8dbe-2f3a4b5c6d7e',
  organizationId: ORG,
  role,
  profiles: [],
  ...(partnerId ? { partnerId } : {}),
})

describe('partner scope (docs/api.md "Permissions")', () => {
  test('org_admin and staff see the whole organization, even when they have a partner', () => {
    expect(partnerScopeOf(actor('org_admin'))).toBeUndefined()
    expect(partnerScopeOf(actor('staff'))).toBeUndefined()
    expect(partnerScopeOf(actor('org_admin', PARTNER))).toBeUndefined()
    expect(partnerScopeOf(actor('staff', PARTNER))).toBeUndefined()
  })

  test('partner_admin, partner_agent and volunteer are confined to their own partner', () => {
    expect(partnerScopeOf(actor('partner_admin', PARTNER))).toBe(PARTNER)
    expect(partnerScopeOf(actor('partner_agent', PARTNER))).toBe(PARTNER)
    expect(partnerScopeOf(actor('volunteer', PARTNER))).toBe(PARTNER)
  })

  test('a partner role without a partner is confined to no partner, never to the whole organization', () => {
    for (const role of ['partner_admin', 'partner_agent', 'volunteer'] as const) {
      const scope = partnerScopeOf(actor(role))
      expect(scope).toBeDefined()
      expect(scope).not.toBe(PARTNER)
    }
  })
})
