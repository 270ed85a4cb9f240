import { describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { erasedConstituent } from '../../../src/domain/constituents/erasure'
import type { NeedSearch } from '../../../src/domain/needs/search'
import { aNeed, aNewNeed, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, ids, minute } from './contract-support'

const WITH_PEOPLE: NeedSearch['kinds'] = ['r', 'd', 'n', 'p']
const search = (q: string, kinds = WITH_PEOPLE) => ({ search: { words: q.split(' '), kinds } })

/**
 * Needs found by the name of the person on file they are for (`constituentId`), as that person is now
 * (docs/api/needs.md "Search and sort"): never by a name copied into the need's own words.
 */
export function describeNeedSearchPersonContract(context: ContractContext): void {
  const { read, write, anOrganizationWithPartner, insertConstituents, insertNeeds } = context
  describe('needs search by the person on file', () => {
    async function personWorld() {
      const { organization, partner } = await anOrganizationWithPartner()
      const org = organization.id
      const [marisol, other] = await insertConstituents(
        org,
        { firstName: 'Marisol', lastName: 'Quispe-Tapia' },
        { firstName: 'Dmitri', lastName: 'Volkov' },
      )
      const forPerson = (person: Constituent, description: string, created: number) =>
        aNeed({
          organizationId: org,
          partnerId: partner.id,
          constituentId: person.id,
          householdId: person.householdId,
          customFields: { description },
          createdAt: minute(created),
        })
      const rent = forPerson(marisol!, 'Help with the rent', 1)
      const food = forPerson(marisol!, 'Groceries', 2)
      const dmitri = forPerson(other!, 'Winter coats', 3)
      await insertNeeds(rent, food, dmitri)
      const found = async (q: string, filter = {}, kinds = WITH_PEOPLE) =>
        ids((await read().needs.list(org, { ...search(q, kinds), ...filter }, ALL)).items)
      return { org, partner, marisol: marisol!, other: other!, rent, food, dmitri, found }
    }

    test('finds a need by word prefixes of its person’s names, with its own words, only when names are asked', async () => {
      const w = await personWorld()

      expect(await w.found('maris')).toEqual(ids([w.food, w.rent]))
      expect(await w.found('quispe')).toEqual(ids([w.food, w.rent]))
      expect(await w.found('tapia mar')).toEqual(ids([w.food, w.rent]))
      expect(await w.found('rent marisol')).toEqual(ids([w.rent]))
      expect(await w.found('marisol volkov')).toEqual([])
      expect(await w.found('maris', {}, ['r', 'd', 'n'])).toEqual([])
      expect(await read().needs.list(w.org, search('quis'), ALL)).toMatchObject({ total: 2 })
      expect(await w.found('quis', { statuses: ['RESOLVED'] })).toEqual([])
    })

    test('finds a confidential need by its person’s name only for readers of confidential needs', async () => {
      const w = await personWorld()
      const secret = aNeed({
        organizationId: w.org,
        partnerId: w.partner.id,
        constituentId: w.marisol.id,
        householdId: w.marisol.householdId,
        isConfidential: true,
        createdAt: minute(5),
      })
      await insertNeeds(secret)

      expect(await w.found('marisol')).toEqual(ids([w.food, w.rent]))
      expect(await w.found('marisol rent')).toEqual(ids([w.rent]))
      expect(await w.found('marisol', {}, [...WITH_PEOPLE, 'q'])).toEqual(ids([secret, w.food, w.rent]))
      expect(await w.found(secret.referenceNumber.split('-')[1]!)).toEqual(ids([secret]))
    })

    test('follows a rename, a merge and an erasure of the person at once', async () => {
      const w = await personWorld()
      await write((r) => r.constituents.update({ ...w.marisol, firstName: 'Marisela', updatedAt: minute(10) }))
      expect(await w.found('marisol')).toEqual([])
      expect(await w.found('marisela')).toEqual(ids([w.food, w.rent]))

      await write(async (r) => {
        await r.needs.moveConstituent(w.org, w.other.id, w.marisol.id, w.marisol.householdId)
        await r.constituents.delete(w.org, w.other.id)
      })
      expect(await w.found('volkov')).toEqual([])
      expect(await w.found('marisela')).toEqual(ids([w.dmitri, w.food, w.rent]))

      await write((r) => r.constituents.update(erasedConstituent({ ...w.marisol, firstName: 'Marisela' }, minute(20))))
      expect(await w.found('marisela')).toEqual([])
      expect(await w.found('quispe')).toEqual([])
      expect(await w.found('rent')).toEqual(ids([w.rent]))
    })

    test('never brings another organization’s needs, and keeps to the partner asked', async () => {
      const w = await personWorld()
      const { organization: elsewhere, partner: theirs } = await anOrganizationWithPartner()
      const [namesake] = await insertConstituents(elsewhere.id, { firstName: 'Marisol', lastName: 'Quispe' })
      const theirNeed = aNeed({
        organizationId: elsewhere.id,
        partnerId: theirs.id,
        constituentId: namesake!.id,
        householdId: namesake!.householdId,
      })
      const otherPartner = aPartner({ organizationId: w.org })
      await write((r) => r.partners.insert(otherPartner))
      const referred = aNeed({
        organizationId: w.org,
        partnerId: otherPartner.id,
        constituentId: w.marisol.id,
        householdId: w.marisol.householdId,
        createdAt: minute(5),
      })
      await insertNeeds(theirNeed, referred)

      expect(await w.found('marisol')).toEqual(ids([referred, w.food, w.rent]))
      expect(await w.found('marisol', { partnerId: otherPartner.id })).toEqual(ids([referred]))
      expect(await w.found('quispe', { partnerId: w.partner.id })).toEqual(ids([w.food, w.rent]))
      expect(ids((await read().needs.list(elsewhere.id, search('marisol'), ALL)).items)).toEqual(ids([theirNeed]))
    })

    test('counts a person’s many needs up to the bound, then pages them in list order', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const [person] = await insertConstituents(organization.id, { firstName: 'Winona', lastName: 'Abernathy' })
      const needs = Array.from({ length: 1_001 }, () =>
        aNewNeed({ organizationId: organization.id, partnerId: partner.id, constituentId: person!.id, householdId: person!.householdId }),
      )
      await write((r) => r.needs.insertMany(needs))

      const page = await read().needs.list(organization.id, search('winona aber'), { page: 1, limit: 25 })
      expect(page).toMatchObject({ total: 1_000, totalIsLowerBound: true })
      expect(ids(page.items)).toEqual(ids(needs).sort().reverse().slice(0, 25))
    })
  })
}
