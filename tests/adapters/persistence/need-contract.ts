import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Need } from '../../../src/domain/needs/need'
import { aNeed, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute, presentKeys } from './contract-support'

/** Needs: the record, reference numbers per organization (their lists: need-list-contract.ts). */
export function describeNeedContract({
  read,
  write,
  anOrganizationWithPartner,
  aMemberOf,
  aConstituentOf,
  insertNeeds,
}: ContractContext): void {
  describe('needs', () => {
    test('keeps every optional field through insert and find', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id)
      const { constituentId, householdId } = await aConstituentOf(organization.id)
      const need = aNeed({
        organizationId: organization.id,
        partnerId: partner.id,
        status: 'PENDING_CLIENT',
        customFields: { bags: 2, notes: 'ring twice', nested: { list: [1, 'two', null], ok: true } },
        isConfidential: true,
        parentNeedId: randomUUID(),
        assignedTo: member.id,
        createdBy: member.id,
        createdAt: minute(1),
        updatedAt: minute(2),
        dueDate: minute(48 * 60),
        constituentId,
        householdId,
        duplicateWarning: 'Possible duplicate of REQ-1001',
        referenceNumber: 'REQ-1001',
      })
      await insertNeeds(need)

      expect(await read().needs.findById(organization.id, need.id)).toEqual(need)
      expect(await read().needs.findByReferenceNumber(organization.id, 'REQ-1001')).toEqual(need)
    })

    test('leaves absent optional fields absent, not null', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: organization.id, partnerId: partner.id })
      await insertNeeds(need)

      const found = await read().needs.findById(organization.id, need.id)
      expect(found).toEqual(need)
      expect(
        presentKeys(found, ['parentNeedId', 'assignedTo', 'createdBy', 'dueDate', 'constituentId', 'householdId', 'duplicateWarning']),
      ).toEqual([])
    })

    test('answers undefined for an unknown id or reference number', async () => {
      const { organization } = await anOrganizationWithPartner()
      expect(await read().needs.findById(organization.id, randomUUID())).toBeUndefined()
      expect(await read().needs.findByReferenceNumber(organization.id, 'REQ-999999')).toBeUndefined()
    })

    test('updates fields and clears optional ones', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const member = await aMemberOf(organization.id)
      const other = aPartner({ organizationId: organization.id })
      await write((r) => r.partners.insert(other))
      const need = aNeed({
        organizationId: organization.id,
        partnerId: partner.id,
        assignedTo: member.id,
        dueDate: minute(60),
        duplicateWarning: 'maybe',
      })
      await insertNeeds(need)

      const { duplicateWarning: _warning, ...withoutWarning } = need
      const updated: Need = {
        ...withoutWarning,
        partnerId: other.id,
        status: 'IN_PROGRESS',
        customFields: { replaced: true },
        isConfidential: true,
        assignedTo: undefined,
        dueDate: minute(120),
        updatedAt: minute(5),
      }
      await write((r) => r.needs.update(updated))

      const found = await read().needs.findById(organization.id, need.id)
      const { assignedTo: _assignedTo, ...expected } = updated
      expect(found).toEqual(expected)
      expect(presentKeys(found, ['assignedTo', 'duplicateWarning'])).toEqual([])
    })

    test('never shows, lists or updates a need of another organization', async () => {
      const { organization: a, partner } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const need = aNeed({ organizationId: a.id, partnerId: partner.id })
      await insertNeeds(need)

      await write((r) => r.needs.update({ ...need, organizationId: b.id, status: 'RESOLVED', customFields: { hijacked: true } }))

      expect(await read().needs.findById(b.id, need.id)).toBeUndefined()
      expect(await read().needs.findByReferenceNumber(b.id, need.referenceNumber)).toBeUndefined()
      expect(await read().needs.list(b.id, {}, { page: 1, limit: 100 })).toEqual({ items: [], total: 0 })
      expect(await read().needs.list(a.id, { partnerId: partner.id }, { page: 1, limit: 100 })).toEqual({ items: [need], total: 1 })
      expect(await read().needs.findById(a.id, need.id)).toEqual(need)
    })

    test('keeps reference numbers apart per organization', async () => {
      const { organization: a, partner: pa } = await anOrganizationWithPartner()
      const { organization: b, partner: pb } = await anOrganizationWithPartner()
      const inA = aNeed({ organizationId: a.id, partnerId: pa.id, referenceNumber: 'REQ-1001' })
      const inB = aNeed({ organizationId: b.id, partnerId: pb.id, referenceNumber: 'REQ-1001' })
      await insertNeeds(inA, inB)

      expect(await read().needs.findByReferenceNumber(a.id, 'REQ-1001')).toEqual(inA)
      expect(await read().needs.findByReferenceNumber(b.id, 'REQ-1001')).toEqual(inB)
    })
  })
}
