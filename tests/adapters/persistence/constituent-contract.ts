import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { CONTACT_FIELDS } from '../../../src/domain/constituents/contact'
import { aConstituent, aContact, aHousehold, aNeed } from '../../support/builders'
import { constituentSteps } from './constituent-support'
import type { ContractContext } from './contract-context'
import { ascendingIds, byId, minute, presentKeys } from './contract-support'

/** Constituents and their households: every contact field kept, scoped to the organization. */
export function describeConstituentContract(context: ContractContext): void {
  const { read, write, anOrganizationWithPartner, insertNeeds } = context
  const { anOrganizationId, insertConstituents, aHome } = constituentSteps(context)

  // Every field (the others' values are tests/support/contact-fields.ts's), written as people write them.
  const fullContact = aContact({
    firstName: 'Chloé',
    lastName: 'Núñez-García',
    phone: '+15551230100',
    email: 'Chloe.Nunez@Example.org',
    dateOfBirth: '1984-02-29',
    addressStreet: '12 Elm St., Apt 4',
    addressCity: 'Springfield',
    addressState: 'IL',
    addressZip: '62701',
  })

  describe('constituents', () => {
    test('keeps every contact field through insert and find', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const constituent = member({ ...fullContact, createdAt: minute(3), updatedAt: minute(4) })
      await insertConstituents(constituent)

      expect(await read().constituents.findById(org, constituent.id)).toEqual(constituent)
    })

    test('leaves absent contact fields absent, not null', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const bare = member()
      const named = member({ lastName: 'Only', phone: undefined })
      await insertConstituents(bare, named)

      const found = await read().constituents.findById(org, bare.id)
      expect(found).toEqual(bare)
      expect(presentKeys(found, [...CONTACT_FIELDS])).toEqual([])
      const foundNamed = await read().constituents.findById(org, named.id)
      expect(foundNamed).toEqual({ ...bare, id: named.id, lastName: 'Only' })
      expect(presentKeys(foundNamed, [...CONTACT_FIELDS])).toEqual(['lastName'])
    })

    test('answers undefined for an unknown id and for another organization’s constituent', async () => {
      const a = await anOrganizationId()
      const b = await anOrganizationId()
      const { member } = await aHome(a)
      const constituent = member({ firstName: 'Ana' })
      await insertConstituents(constituent)

      expect(await read().constituents.findById(a, randomUUID())).toBeUndefined()
      expect(await read().constituents.findById(b, constituent.id)).toBeUndefined()
    })

    test('finds several by id at once, only in the organization, leaving out unknown ids', async () => {
      const a = await anOrganizationId()
      const b = await anOrganizationId()
      const { member } = await aHome(a)
      const [ana, bo, cy] = [member({ firstName: 'Ana' }), member({ ...fullContact, firstName: 'Bo' }), member({ firstName: 'Cy' })]
      await insertConstituents(ana, bo, cy)

      const found = await read().constituents.findByIds(a, [bo.id, ana.id, randomUUID(), bo.id])
      expect(byId(found)).toEqual(byId([ana, bo]))
      expect(await read().constituents.findByIds(b, [ana.id, bo.id])).toEqual([])
      expect(await read().constituents.findByIds(a, [])).toEqual([])
    })

    test('updates fields, clears the ones left out or given as undefined, and keeps createdAt', async () => {
      const org = await anOrganizationId()
      const { member } = await aHome(org)
      const other = await aHome(org)
      const constituent = member({ ...fullContact, createdAt: minute(1), updatedAt: minute(1) })
      await insertConstituents(constituent)

      const { addressCity: _city, addressZip: _zip, ...kept } = constituent
      await write((r) =>
        r.constituents.update({
          ...kept,
          householdId: other.household.id,
          firstName: 'Zoë',
          email: undefined,
          createdAt: minute(50),
          updatedAt: minute(9),
        }),
      )

      const found = await read().constituents.findById(org, constituent.id)
      const { email: _email, ...expected } = { ...kept, householdId: other.household.id, firstName: 'Zoë', updatedAt: minute(9) }
      expect(found).toEqual(expected)
      expect(presentKeys(found, ['email', 'addressCity', 'addressZip'])).toEqual([])
    })

    test('never updates or deletes another organization’s constituent', async () => {
      const a = await anOrganizationId()
      const b = await anOrganizationId()
      const { member } = await aHome(a)
      const constituent = member({ firstName: 'Ana', phone: '+15551230101' })
      await insertConstituents(constituent)

      await write(async (r) => {
        await r.constituents.update({ ...constituent, organizationId: b, firstName: 'Hijacked' })
        await r.constituents.delete(b, constituent.id)
      })

      expect(await read().constituents.findById(a, constituent.id)).toEqual(constituent)
      expect(await read().constituents.findById(b, constituent.id)).toBeUndefined()
    })

    test('deletes a constituent; deleting an unknown one is no error', async () => {
      const org = await anOrganizationId()
      const { household, member } = await aHome(org)
      const gone = member({ firstName: 'Gone', createdAt: minute(1) })
      const stays = member({ firstName: 'Stays', createdAt: minute(2) })
      await insertConstituents(gone, stays)

      await write(async (r) => {
        await r.constituents.delete(org, gone.id)
        await r.constituents.delete(org, randomUUID())
      })

      expect(await read().constituents.findById(org, gone.id)).toBeUndefined()
      expect(await read().constituents.findById(org, stays.id)).toEqual(stays)
      expect(await read().constituents.listByHousehold(org, household.id)).toEqual([stays])
    })

    test('a failed transaction keeps none of its constituents', async () => {
      const org = await anOrganizationId()
      const household = aHousehold({ organizationId: org })
      const constituent = aConstituent({ organizationId: org, householdId: household.id, firstName: 'Never' })
      const failure = new Error('late failure')

      const outcome = write(async (r) => {
        await r.constituents.insertHousehold(household)
        await r.constituents.insert(constituent)
        throw failure
      })

      await expect(outcome).rejects.toBe(failure)
      expect(await read().constituents.findById(org, constituent.id)).toBeUndefined()
      expect(await read().constituents.householdExists(org, household.id)).toBe(false)
    })

    describe('households', () => {
      test('a household exists for its organization only', async () => {
        const a = await anOrganizationId()
        const b = await anOrganizationId()
        const { household } = await aHome(a)

        expect(await read().constituents.householdExists(a, household.id)).toBe(true)
        expect(await read().constituents.householdExists(b, household.id)).toBe(false)
        expect(await read().constituents.householdExists(a, randomUUID())).toBe(false)
      })

      test('lists the members of one household of the organization', async () => {
        const a = await anOrganizationId()
        const b = await anOrganizationId()
        const home = await aHome(a)
        const neighbours = await aHome(a)
        const [low, high] = ascendingIds(2) as [string, string]
        const members = [
          home.member({ firstName: 'Later', createdAt: minute(9) }),
          home.member({ id: high, firstName: 'Tie high', createdAt: minute(2) }),
          home.member({ firstName: 'Earliest', createdAt: minute(1) }),
          home.member({ id: low, firstName: 'Tie low', createdAt: minute(2) }),
        ]
        await insertConstituents(...members, neighbours.member({ firstName: 'Neighbour' }))

        const listed = await read().constituents.listByHousehold(a, home.household.id)
        expect(byId(listed)).toEqual(byId(members))
        expect(await read().constituents.listByHousehold(b, home.household.id)).toEqual([])
        expect(await read().constituents.listByHousehold(a, randomUUID())).toEqual([])
      })

      test('deleteHouseholdIfUnused keeps a household while a constituent or a need points at it', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const org = organization.id
        const withMember = await aHome(org)
        const resident = withMember.member({ firstName: 'Resident' })
        await insertConstituents(resident)
        const withNeed = await aHome(org)
        await insertNeeds(aNeed({ organizationId: org, partnerId: partner.id, householdId: withNeed.household.id }))

        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(org, withMember.household.id))).toBe(false)
        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(org, withNeed.household.id))).toBe(false)
        expect(await read().constituents.householdExists(org, withMember.household.id)).toBe(true)
        expect(await read().constituents.householdExists(org, withNeed.household.id)).toBe(true)

        // Once the last member has moved out, the household goes.
        await write((r) => r.constituents.update({ ...resident, householdId: withNeed.household.id }))
        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(org, withMember.household.id))).toBe(true)
        expect(await read().constituents.householdExists(org, withMember.household.id)).toBe(false)
      })

      test('deleteHouseholdIfUnused removes nothing of another organization and nothing unknown', async () => {
        const a = await anOrganizationId()
        const b = await anOrganizationId()
        const { household } = await aHome(a)

        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(b, household.id))).toBe(false)
        expect(await write((r) => r.constituents.deleteHouseholdIfUnused(a, randomUUID()))).toBe(false)
        expect(await read().constituents.householdExists(a, household.id)).toBe(true)
      })
    })
  })
}
