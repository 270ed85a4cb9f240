import { describe, expect, test } from 'bun:test'
import { aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ids, minute, presentKeys } from './contract-support'

/** Partners of an organization: the record, their list, and the one default. */
export function describePartnerContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('partners', () => {
    test('keeps every optional field through insert and find', async () => {
      const { organization } = await anOrganizationWithPartner()
      const partner = aPartner({
        organizationId: organization.id,
        name: 'North Pantry',
        slaHours: 72,
        isArchived: true,
        description: 'Dry goods and fresh produce',
        keywords: ['food', 'produce'],
        website: 'https://north.example.org',
        publicCategoryName: 'Food',
        createdAt: minute(5),
      })
      await write((r) => r.partners.insert(partner))

      expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
    })

    test('leaves absent optional fields absent, not null', async () => {
      const { organization } = await anOrganizationWithPartner()
      const partner = aPartner({ organizationId: organization.id })
      await write((r) => r.partners.insert(partner))

      const found = await read().partners.findById(organization.id, partner.id)
      expect(found).toEqual(partner)
      expect(presentKeys(found, ['description', 'keywords', 'website', 'publicCategoryName'])).toEqual([])
    })

    test('updates fields and clears optional ones', async () => {
      const { organization } = await anOrganizationWithPartner()
      const partner = aPartner({
        organizationId: organization.id,
        description: 'Old',
        keywords: ['a'],
        website: 'https://old.example.org',
        publicCategoryName: 'Old',
      })
      await write((r) => r.partners.insert(partner))

      // One field cleared by leaving it out, one by setting it undefined, as a spread of changes does.
      const { keywords: _keywords, website: _website, description: _description, ...kept } = partner
      await write((r) =>
        r.partners.update({ ...kept, name: 'Renamed', slaHours: 24, isArchived: true, description: undefined, publicCategoryName: 'New' }),
      )

      const found = await read().partners.findById(organization.id, partner.id)
      expect(found).toEqual({ ...kept, name: 'Renamed', slaHours: 24, isArchived: true, publicCategoryName: 'New' })
      expect(presentKeys(found, ['description', 'keywords', 'website'])).toEqual([])
    })

    test('never shows or updates a partner of another organization', async () => {
      const { organization: a, partner } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()

      await write((r) => r.partners.update({ ...partner, organizationId: b.id, name: 'Hijacked', isDefault: false }))

      expect(await read().partners.findById(b.id, partner.id)).toBeUndefined()
      expect(await read().partners.findById(a.id, partner.id)).toEqual(partner)
      expect(ids(await read().partners.listAll(b.id))).not.toContain(partner.id)
    })

    test('lists every partner of the organization, oldest first', async () => {
      const { organization, partner: first } = await anOrganizationWithPartner()
      const { partner: foreign } = await anOrganizationWithPartner()
      const third = aPartner({ organizationId: organization.id, createdAt: minute(30) })
      const second = aPartner({ organizationId: organization.id, createdAt: minute(10) })
      await write(async (r) => {
        await r.partners.insert(third)
        await r.partners.insert(second)
      })

      const listed = await read().partners.listAll(organization.id)
      expect(listed).toEqual([first, second, third])
      expect(ids(listed)).not.toContain(foreign.id)
    })

    test('clears the default flag of every partner but the one kept, in that organization only', async () => {
      const { organization: a, partner: oldDefault } = await anOrganizationWithPartner()
      const { organization: b, partner: otherDefault } = await anOrganizationWithPartner()
      const newDefault = aPartner({ organizationId: a.id, createdAt: minute(1) })
      await write((r) => r.partners.insert(newDefault))

      await write(async (r) => {
        await r.partners.clearDefaultExcept(a.id, newDefault.id)
        await r.partners.update({ ...newDefault, isDefault: true })
      })

      expect((await read().partners.findById(a.id, oldDefault.id))?.isDefault).toBe(false)
      expect((await read().partners.findById(a.id, newDefault.id))?.isDefault).toBe(true)
      expect((await read().partners.findById(b.id, otherDefault.id))?.isDefault).toBe(true)
    })

    test('keeps the default when it is the partner kept', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      await write((r) => r.partners.clearDefaultExcept(organization.id, partner.id))

      expect(await read().partners.findById(organization.id, partner.id)).toEqual(partner)
    })
  })
}
