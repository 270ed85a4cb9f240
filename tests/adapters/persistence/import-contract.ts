import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import { aConstituent, aHousehold, aNeed, aNewNeed } from '../../support/builders'
import { constituentSteps } from './constituent-support'
import type { ContractContext } from './contract-context'
import { byId, ids } from './contract-support'

/** What an import reads and writes a batch at a time (docs/api/exports-import.md "Import"). */
export function describeImportContract(context: ContractContext): void {
  const { read, write, anOrganizationWithPartner, insertNeeds } = context
  const { anOrganizationId, insertConstituents, aHome } = constituentSteps(context)

  describe('findSharingKeys, insertMany, insertHouseholds (an import’s batch)', () => {
    test('finds the constituents sharing a key with any of several, in the organization only, at most limitPerKey per kind', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const ana = member({ firstName: 'Ana', lastName: 'Lima', phone: '+15551110101' })
      const bo = member({ firstName: 'Bo', lastName: 'Lind', email: 'Bo@Example.org' })
      const cy = member({ firstName: 'Cy', lastName: 'Moe', dateOfBirth: '1990-01-02' })
      const dee = member({ firstName: 'Dee', lastName: 'Ng', addressStreet: '3 Elm St' })
      const unrelated = member({ firstName: 'Eve', phone: '+15551110199' })
      await insertConstituents(ana, bo, cy, dee, unrelated)
      const elsewhere = (await aHome(await anOrganizationId())).member({ phone: ana.phone })
      await insertConstituents(elsewhere)

      const keys = [
        matchKeysOf({ phone: ana.phone }),
        matchKeysOf({ email: 'bo@example.ORG', firstName: 'Cy', lastName: 'MOE', dateOfBirth: '1990-01-02' }),
        matchKeysOf({ lastName: 'ng', addressStreet: '3 elm st.' }),
        {},
      ]
      expect(byId(await read().constituents.findSharingKeys(org, keys, 10))).toEqual(byId([ana, bo, cy, dee]))
      expect(await read().constituents.findSharingKeys(org, [{}], 10)).toEqual([])

      const many = Array.from({ length: 4 }, () => member({ phone: '+15551110177' }))
      await insertConstituents(...many)
      expect(await read().constituents.findSharingKeys(org, [{ phone: '+15551110177' }], 3)).toHaveLength(3)
    })

    test('insertMany and insertHouseholds store each as the single inserts do', async () => {
      const org = await anOrganizationId()
      const households = [aHousehold({ organizationId: org }), aHousehold({ organizationId: org })]
      const people = households.map((h, i) =>
        aConstituent({ organizationId: org, householdId: h.id, firstName: `P${i}`, email: `p${i}@example.org`, addressZip: '97201' }),
      )
      await write(async (r) => {
        await r.constituents.insertHouseholds(households)
        await r.constituents.insertMany(people)
      })
      for (const person of people) expect(await read().constituents.findById(org, person.id)).toEqual(person)
      for (const household of households) expect(await read().constituents.householdExists(org, household.id)).toBe(true)
      expect(
        byId(
          await read().constituents.findSharingKeys(
            org,
            people.map((p) => matchKeysOf(p)),
            10,
          ),
        ),
      ).toEqual(byId(people))
    })
  })

  describe('needs', () => {
    test('finds the needs created at exactly one of several times, in the organization only', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const other = await anOrganizationWithPartner()
      const at = new Date('2025-06-01T10:00:00.123Z')
      const twins = [1, 2].map((n) =>
        aNeed({ organizationId: organization.id, partnerId: partner.id, createdAt: at, referenceNumber: `REQ-${n}` }),
      )
      const later = aNeed({
        organizationId: organization.id,
        partnerId: partner.id,
        createdAt: new Date(at.getTime() + 1),
        referenceNumber: 'REQ-3',
      })
      const elsewhere = aNeed({ organizationId: other.organization.id, partnerId: other.partner.id, createdAt: at })
      await insertNeeds(...twins, later, elsewhere)

      const found = await read().needs.findCreatedAt(organization.id, [at, new Date('2020-01-01T00:00:00Z')])
      expect(ids(found).sort()).toEqual(ids(twins).sort())
      expect(ids(await read().needs.findCreatedAt(organization.id, [at, later.createdAt])).sort()).toEqual(ids([...twins, later]).sort())
      expect(await write((r) => r.needs.findCreatedAt(organization.id, [new Date(at.getTime() - 1)]))).toEqual([])
      expect(await read().needs.findCreatedAt(organization.id, [])).toEqual([])
    })

    test('insertMany stores each need as insert does, with its number; many changes appended at once keep their order', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const needs = [1, 2, 3].map((n) => aNewNeed({ organizationId: organization.id, partnerId: partner.id, customFields: { n } }))
      const numbers = await write(async (r) => {
        const { referenceNumbers } = await r.needs.insertMany(needs)
        await r.needs.appendChanges(
          needs.map((need, i) => ({
            id: randomUUID(),
            organizationId: organization.id,
            needId: needs[0]!.id,
            field: 'status',
            to: ['NEW', 'IN_PROGRESS', 'RESOLVED'][i],
            changedAt: need.createdAt,
          })),
        )
        return referenceNumbers
      })
      for (const [i, need] of needs.entries()) {
        expect(await read().needs.findById(organization.id, need.id)).toEqual({ ...need, referenceNumber: numbers[i]! })
      }
      const history = await read().needs.listChanges(organization.id, needs[0]!.id, { page: 1, limit: 10 })
      expect(history.items.map((change) => change.to)).toEqual(['NEW', 'IN_PROGRESS', 'RESOLVED'])
    })
  })
}
