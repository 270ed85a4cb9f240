import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'bun:test'
import type { Service } from '../../../src/domain/services/service'
import type { TaxonomyTerm } from '../../../src/domain/services/taxonomy'
import type { ContractContext } from './contract-context'
import { ALL, byId, ids, minute } from './contract-support'
import { aPartner } from '../../support/builders'

/** The services' part of the repository contract: every field kept, lists filtered within the organization, terms picked. */
export function describeServiceContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  const aService = (owner: { organizationId: string; partnerId: string }, overrides: Partial<Service> = {}): Service => ({
    id: randomUUID(),
    ...owner,
    name: 'Food pantry',
    status: 'active',
    languages: [],
    schedule: [],
    acceptingReferrals: true,
    taxonomyTerms: [],
    isArchived: false,
    createdAt: minute(0),
    updatedAt: minute(0),
    ...overrides,
  })
  const aTerm = (organizationId: string, vocabulary: string, code: string, name: string): TaxonomyTerm => ({
    id: randomUUID(),
    organizationId,
    vocabulary,
    code,
    name,
  })

  describe('services', () => {
    test('keeps every field, the lists and the address as JSON; another organization finds nothing', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const service = aService(
        { organizationId: organization.id, partnerId: partner.id },
        {
          description: 'Groceries once a week',
          status: 'temporarily closed',
          eligibility: 'Residents of the county',
          languages: ['en', 'es-MX'],
          schedule: [
            { byDay: ['MO', 'WE'], opensAt: '09:00', closesAt: '17:00' },
            { byDay: ['SA'], opensAt: '10:00', closesAt: '12:30', description: 'Families only' },
          ],
          fees: 'None',
          applicationProcess: 'Walk in',
          url: 'https://pantry.example.org',
          email: 'pantry@example.org',
          phone: '+15035550142',
          address: { address1: '1 Main St', city: 'Portland', stateProvince: 'OR', postalCode: '97201', country: 'US' },
          acceptingReferrals: false,
          taxonomyTerms: [{ vocabulary: 'open-eligibility', code: '1102' }],
        },
      )
      await write((r) => r.services.insert(service))
      expect(await read().services.findById(organization.id, service.id)).toEqual(service)
      expect(await read().services.findById(other.id, service.id)).toBeUndefined()
      expect(await read().services.list(other.id, { includeArchived: true }, ALL)).toEqual({ items: [], total: 0 })
    })

    test('an update replaces the fields, clears those left undefined, and never reaches another organization', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const service = aService({ organizationId: organization.id, partnerId: partner.id }, { phone: '+15035550142', fees: 'None' })
      await write((r) => r.services.insert(service))
      const { phone: _phone, fees: _fees, ...rest } = service
      const changed: Service = { ...rest, name: 'Pantry', isArchived: true, languages: ['fr'], updatedAt: minute(5) }
      await write((r) => r.services.update(changed))
      expect(await read().services.findById(organization.id, service.id)).toEqual(changed)
      await write((r) => r.services.update({ ...changed, organizationId: other.id, name: 'Taken over' }))
      expect((await read().services.findById(organization.id, service.id))!.name).toBe('Pantry')
    })

    test('lists newest first, paged and counted, by partner and status, archived ones only when asked', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const second = aPartner({ organizationId: organization.id })
      await write((r) => r.partners.insert(second))
      const owner = { organizationId: organization.id, partnerId: partner.id }
      const [a, b, c, d] = [
        aService(owner, { createdAt: minute(1) }),
        aService(owner, { createdAt: minute(3), status: 'inactive' }),
        aService({ ...owner, partnerId: second.id }, { createdAt: minute(2) }),
        aService(owner, { createdAt: minute(4), isArchived: true }),
      ]
      await write(async (r) => {
        for (const service of [a!, b!, c!, d!]) await r.services.insert(service)
      })
      const list = (filter: object, page = ALL) => read().services.list(organization.id, filter, page)
      expect(await list({})).toMatchObject({ items: [b, c, a], total: 3 })
      expect(ids((await list({ includeArchived: true })).items)).toEqual(ids([d!, b!, c!, a!]))
      expect(ids((await list({}, { page: 2, limit: 2 })).items)).toEqual([a!.id])
      expect(ids((await list({ partnerId: partner.id })).items)).toEqual(ids([b!, a!]))
      expect(await list({ status: 'inactive' })).toEqual({ items: [b!], total: 1 })
      expect((await list({ partnerId: second.id, status: 'active', includeArchived: true })).total).toBe(1)
    })
  })

  describe('taxonomy terms', () => {
    test('finds the organization’s terms by vocabulary and code, not another vocabulary’s nor another organization’s', async () => {
      const { organization } = await anOrganizationWithPartner()
      const { organization: other } = await anOrganizationWithPartner()
      const food = { ...aTerm(organization.id, 'open-eligibility', '1102', 'Food'), description: 'Meals and groceries' }
      const housing = aTerm(organization.id, 'open-eligibility', '1103', 'Housing')
      const elsewhere = aTerm(organization.id, '211-la', '1102', 'Another vocabulary’s food')
      await write((r) => r.taxonomyTerms.insertMany([food, housing, elsewhere, aTerm(other.id, 'open-eligibility', '1103', 'Theirs')]))
      const found = await read().taxonomyTerms.findByReferences(organization.id, [
        { vocabulary: 'open-eligibility', code: '1102' },
        { vocabulary: 'open-eligibility', code: '1103' },
        { vocabulary: 'open-eligibility', code: '9999' },
      ])
      expect(byId(found)).toEqual(byId([food, housing]))
      expect(await read().taxonomyTerms.findByReferences(other.id, [{ vocabulary: 'open-eligibility', code: '1102' }])).toEqual([])
      expect(await read().taxonomyTerms.findByReferences(organization.id, [])).toEqual([])
    })

    test('searches by vocabulary and by words of the code or name, case aside (% and _ meant as such), by vocabulary then code', async () => {
      const { organization } = await anOrganizationWithPartner()
      const terms = [
        aTerm(organization.id, 'oe', 'food-2', 'Food Pantry'),
        aTerm(organization.id, 'oe', 'food-1', 'Emergency food'),
        aTerm(organization.id, 'oe', 'care', 'Child care 100% free'),
        aTerm(organization.id, 'ab', 'meals', 'Hot FOOD'),
      ]
      await write((r) => r.taxonomyTerms.insertMany(terms))
      const search = (query: object, page = ALL) => read().taxonomyTerms.search(organization.id, query, page)
      const [pantry, emergency, care, hot] = terms
      expect(await search({})).toEqual({ items: [hot!, care!, emergency!, pantry!], total: 4 })
      expect((await search({ q: 'food' })).items).toEqual([hot!, emergency!, pantry!])
      expect((await search({ vocabulary: 'oe', q: 'FOOD' })).items).toEqual([emergency!, pantry!])
      expect((await search({ q: '0%' })).items).toEqual([care!])
      expect((await search({ q: 'food_' })).items).toEqual([])
      expect(await search({ vocabulary: 'oe' }, { page: 2, limit: 2 })).toEqual({ items: [pantry!], total: 3 })
    })
  })
}
