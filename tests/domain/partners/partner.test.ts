import { describe, expect, test } from 'bun:test'
import { ConflictError } from '../../../src/domain/errors'
import { assertPartnerConsistent, SLA_HOURS } from '../../../src/domain/partners/partner'
import { aPartner } from '../../support/builders'

const ORG = '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d'

describe('partner rules (docs/api/needs.md "Partners")', () => {
  test('the default partner cannot be archived', () => {
    expect(() => assertPartnerConsistent(aPartner({ organizationId: ORG, isDefault: true, isArchived: true }))).toThrow(ConflictError)
  })

  test('any other combination of default and archived is fine', () => {
    expect(() => assertPartnerConsistent(aPartner({ organizationId: ORG, isDefault: true, isArchived: false }))).not.toThrow()
    expect(() => assertPartnerConsistent(aPartner({ organizationId: ORG, isDefault: false, isArchived: true }))).not.toThrow()
    expect(() => assertPartnerConsistent(aPartner({ organizationId: ORG, isDefault: false, isArchived: false }))).not.toThrow()
  })

  test('slaHours runs from 1 to 8,760 (a year)', () => {
    expect(SLA_HOURS).toEqual({ minimum: 1, maximum: 8760 })
  })
})
