import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ConflictError } from '../../../src/domain/errors'
import type { Need } from '../../../src/domain/needs/need'
import { aNeed, anOrganization } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ascendingIds, minute, presentKeys, rejectionOf } from './contract-support'

/** An E.164 number no other test of the suite's shared store uses (organization numbers are unique store-wide). */
const aPhone = () => `+1${2_000_000_000 + Math.floor(Math.random() * 7_999_999_999)}`

/** The SMS part of the repository contract: organization numbers, constituents by phone, their newest needs. */
export function describeSmsContract({ read, write, anOrganizationWithPartner, insertNeeds, insertConstituents }: ContractContext): void {
  describe('texting (SMS)', () => {
    describe('organization phone numbers', () => {
      test('finds an organization by its SMS number, and none by an unknown one', async () => {
        const phoneNumber = aPhone()
        const { organization } = await anOrganizationWithPartner({ phoneNumber })
        await anOrganizationWithPartner()

        expect(await read().organizations.findByPhoneNumber(phoneNumber)).toEqual(organization)
        expect(await read().organizations.findByPhoneNumber(aPhone())).toBeUndefined()
      })

      test('a number another organization has is a ConflictError on insert, and the transaction keeps nothing', async () => {
        const { organization: taken } = await anOrganizationWithPartner({ phoneNumber: aPhone() })
        const bystander = anOrganization()
        const second = anOrganization({ phoneNumber: taken.phoneNumber })

        const error = await rejectionOf(
          write(async (r) => {
            await r.organizations.insert(bystander)
            await r.organizations.insert(second)
          }),
        )

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/phone number/i)
        expect(await read().organizations.findByPhoneNumber(taken.phoneNumber!)).toEqual(taken)
        expect(await read().organizations.findById(second.id)).toBeUndefined()
        expect(await read().organizations.findById(bystander.id)).toBeUndefined()
      })

      test('a number another organization has is a ConflictError on update, and the transaction keeps nothing', async () => {
        const { organization: taken } = await anOrganizationWithPartner({ phoneNumber: aPhone() })
        const { organization } = await anOrganizationWithPartner()
        const { organization: bystander } = await anOrganizationWithPartner()

        const error = await rejectionOf(
          write(async (r) => {
            await r.organizations.update({ ...bystander, name: 'Never saved' })
            await r.organizations.update({ ...organization, phoneNumber: taken.phoneNumber })
          }),
        )

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/phone number/i)
        expect(await read().organizations.findById(organization.id)).toEqual(organization)
        expect(await read().organizations.findById(bystander.id)).toEqual(bystander)
        expect(await read().organizations.findByPhoneNumber(taken.phoneNumber!)).toEqual(taken)
      })

      test('a changed or cleared number is found under the new one only, and the old one is free for another organization', async () => {
        const [first, second] = [aPhone(), aPhone()]
        const { organization: a } = await anOrganizationWithPartner({ phoneNumber: first })
        const { organization: b } = await anOrganizationWithPartner()

        await write((r) => r.organizations.update({ ...a, phoneNumber: second }))
        expect(await read().organizations.findByPhoneNumber(first)).toBeUndefined()
        expect(await read().organizations.findByPhoneNumber(second)).toEqual({ ...a, phoneNumber: second })

        await write(async (r) => {
          await r.organizations.update({ ...b, phoneNumber: first })
          // Keeping its own number is no conflict.
          await r.organizations.update({ ...b, phoneNumber: first, name: 'Renamed' })
        })
        expect(await read().organizations.findByPhoneNumber(first)).toEqual({ ...b, phoneNumber: first, name: 'Renamed' })

        const { phoneNumber: _phoneNumber, ...withoutNumber } = a
        await write((r) => r.organizations.update(withoutNumber))
        expect(await read().organizations.findByPhoneNumber(second)).toBeUndefined()
        expect(presentKeys(await read().organizations.findById(a.id), ['phoneNumber'])).toEqual([])
        const { organization: c } = await anOrganizationWithPartner({ phoneNumber: second })
        expect(await read().organizations.findByPhoneNumber(second)).toEqual(c)
      })
    })

    describe('constituents by phone', () => {
      test('finds the organization’s constituents with the phone, newest first, id as tie-break', async () => {
        const { organization } = await anOrganizationWithPartner()
        const { organization: foreignOrganization } = await anOrganizationWithPartner()
        const phone = '+15557654321'
        const [low, high] = ascendingIds(2) as [string, string]
        // Oldest first, so an adapter answering in insertion order fails.
        const [older, tieLow, tieHigh] = await insertConstituents(
          organization.id,
          { phone, firstName: 'Older', createdAt: minute(1) },
          { id: low, phone, createdAt: minute(2) },
          { id: high, phone, lastName: 'High', createdAt: minute(2) },
          { phone: '+15557654320', createdAt: minute(3) },
          { firstName: 'No phone', createdAt: minute(4) },
        )
        const [foreign] = await insertConstituents(foreignOrganization.id, { phone, createdAt: minute(5) })

        expect(await read().constituents.findByPhone(organization.id, phone)).toEqual([tieHigh!, tieLow!, older!])
        expect(await read().constituents.findByPhone(foreignOrganization.id, phone)).toEqual([foreign!])
        expect(await read().constituents.findByPhone(organization.id, '+15550000000')).toEqual([])
      })

      test('follows updates and deletes', async () => {
        const { organization } = await anOrganizationWithPartner()
        const [phone, newPhone] = ['+15557654321', '+15557654322']
        const [moved, deleted, kept] = await insertConstituents(
          organization.id,
          { phone, createdAt: minute(1) },
          { phone, createdAt: minute(2) },
          { phone, createdAt: minute(3) },
        )

        await write(async (r) => {
          await r.constituents.update({ ...moved!, phone: newPhone })
          await r.constituents.delete(organization.id, deleted!.id)
        })

        expect(await read().constituents.findByPhone(organization.id, phone)).toEqual([kept!])
        expect(await read().constituents.findByPhone(organization.id, newPhone)).toEqual([{ ...moved!, phone: newPhone }])
      })
    })

    describe('newest needs of constituents', () => {
      test('answers the needs of any of the constituents, newest first, id as tie-break, whatever their status', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const org = organization.id
        const [a, b, c] = await insertConstituents(org, { firstName: 'A' }, { firstName: 'B' }, { firstName: 'C' })
        const needOf = (constituent: Constituent, overrides: Partial<Need>) =>
          aNeed({
            organizationId: org,
            partnerId: partner.id,
            constituentId: constituent.id,
            householdId: constituent.householdId,
            ...overrides,
          })
        const [low, high] = ascendingIds(2) as [string, string]
        const a1 = needOf(a!, { createdAt: minute(1) })
        const aTie = needOf(a!, { id: low, status: 'RESOLVED', createdAt: minute(2) })
        const bTie = needOf(b!, { id: high, status: 'IN_PROGRESS', createdAt: minute(2) })
        const b3 = needOf(b!, { createdAt: minute(3) })
        await insertNeeds(
          a1,
          aTie,
          bTie,
          b3,
          needOf(c!, { createdAt: minute(9) }),
          aNeed({ organizationId: org, partnerId: partner.id, createdAt: minute(9) }),
        )

        expect(await read().needs.newestOfConstituents(org, [a!.id, b!.id])).toEqual([b3, bTie, aTie, a1])
        expect(await read().needs.newestOfConstituents(org, [a!.id])).toEqual([aTie, a1])
        expect(await read().needs.newestOfConstituents(org, [])).toEqual([])
        expect(await read().needs.newestOfConstituents(org, [randomUUID()])).toEqual([])
      })

      test('answers at most the 20 newest', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { firstName: 'Busy' })
        const needs = Array.from({ length: 21 }, (_, i) =>
          aNeed({
            organizationId: organization.id,
            partnerId: partner.id,
            constituentId: constituent!.id,
            householdId: constituent!.householdId,
            createdAt: minute(i),
          }),
        )
        await insertNeeds(...needs)

        expect(await read().needs.newestOfConstituents(organization.id, [constituent!.id])).toEqual(needs.slice(1).reverse())
      })

      test('never answers another organization’s needs', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const { organization: other } = await anOrganizationWithPartner()
        const [constituent] = await insertConstituents(organization.id, { firstName: 'Ana' })
        const need = aNeed({
          organizationId: organization.id,
          partnerId: partner.id,
          constituentId: constituent!.id,
          householdId: constituent!.householdId,
        })
        await insertNeeds(need)

        expect(await read().needs.newestOfConstituents(other.id, [constituent!.id])).toEqual([])
        expect(await read().needs.newestOfConstituents(organization.id, [constituent!.id])).toEqual([need])
      })
    })
  })
}
