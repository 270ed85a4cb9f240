import { describe, expect, test } from 'bun:test'
import type { NeedSearch, NeedSort } from '../../../src/domain/needs/search'
import { aNeed, aNewNeed } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, ids, minute } from './contract-support'

const EVERY_KIND: NeedSearch['kinds'] = ['r', 'd', 'n', 'c', 'm']
const search = (q: string, kinds = EVERY_KIND) => ({ search: { words: q.split(' '), kinds } })

/** Needs found by words of their reference, description and names (docs/api/needs.md "Search and sort"), and lists in each sort's order. */
export function describeNeedSearchContract(context: ContractContext): void {
  const { read, write, anOrganizationWithPartner, insertNeeds } = context
  describe('needs search', () => {
    async function searchWorld() {
      const { organization, partner } = await anOrganizationWithPartner()
      const org = organization.id
      const of = (overrides: Parameters<typeof aNeed>[0] extends infer O ? Partial<O> : never) =>
        aNeed({ organizationId: org, partnerId: partner.id, ...overrides })
      const rent = of({ referenceNumber: 'REQ-1001', customFields: { description: 'Help with the rent' }, createdAt: minute(1) })
      const food = of({
        referenceNumber: 'REQ-1002',
        status: 'RESOLVED',
        customFields: { description: 'Necesito comida', firstName: 'José', lastName: 'Núñez' },
        createdAt: minute(2),
      })
      const secret = of({
        referenceNumber: 'REQ-1010',
        isConfidential: true,
        customFields: { description: 'Rental assistance', firstName: 'Rena', lastName: 'Shah' },
        createdAt: minute(3),
      })
      await insertNeeds(rent, food, secret)
      const { organization: other, partner: otherPartner } = await anOrganizationWithPartner()
      await insertNeeds(aNeed({ organizationId: other.id, partnerId: otherPartner.id, customFields: { description: 'rent' } }))
      return { org, partner, rent, food, secret }
    }

    test('finds needs by word prefixes of the description, the names and the reference, every word, in the organization only', async () => {
      const w = await searchWorld()
      const found = async (q: string) => ids((await read().needs.list(w.org, search(q), ALL)).items)

      expect(await found('ren')).toEqual(ids([w.secret, w.rent]))
      expect(await found('rent help')).toEqual(ids([w.rent]))
      expect(await found('jose nun')).toEqual(ids([w.food]))
      expect(await found('1001')).toEqual(ids([w.rent]))
      expect(await found('req 101')).toEqual(ids([w.secret]))
      expect(await found('rent food')).toEqual([])
      expect(await read().needs.list(w.org, search('ren'), ALL)).toMatchObject({ total: 2 })
      expect((await read().needs.list(w.org, { ...search('ren'), statuses: ['RESOLVED'] }, ALL)).total).toBe(0)
    })

    test('finds a confidential need by its text, and anyone by names, only through the kinds asked', async () => {
      const w = await searchWorld()
      const found = async (q: string, kinds: NeedSearch['kinds']) => ids((await read().needs.list(w.org, search(q, kinds), ALL)).items)

      expect(await found('rental', ['r', 'd', 'n'])).toEqual([])
      expect(await found('rena', ['r', 'd', 'c'])).toEqual([])
      expect(await found('rena', ['m'])).toEqual(ids([w.secret]))
      expect(await found('jose', ['r', 'd', 'c'])).toEqual([])
      expect(await found('1010', ['r'])).toEqual(ids([w.secret]))
    })

    test('keeps no words a need no longer has: a change of its text, erasure of its names, retention', async () => {
      const w = await searchWorld()
      const found = async (q: string) => ids((await read().needs.list(w.org, search(q), ALL)).items)
      await write((r) => r.needs.update({ ...w.rent, customFields: { description: 'Utility bill' } }))
      await write((r) => r.needs.update({ ...w.secret, customFields: { description: 'Rental assistance' } }))

      expect(await found('rent')).toEqual(ids([w.secret]))
      expect(await found('utility')).toEqual(ids([w.rent]))
      expect(await found('shah')).toEqual([])
      await write((r) => r.needs.clearResolvedText(w.org, minute(60), minute(61), 10))
      expect(await found('comida')).toEqual([])
      expect(await found('1002')).toEqual(ids([w.food]))
    })

    test('finds new needs by the reference numbers the store gives them', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const needs = [1, 2].map((i) => aNewNeed({ organizationId: organization.id, partnerId: partner.id, createdAt: minute(i) }))
      const numbers = await write(async (r) => (await r.needs.insertMany(needs)).referenceNumbers)
      const numbered = await read().needs.list(organization.id, search(numbers[1]!.split('-')[1]!), ALL)

      expect(ids(numbered.items)).toEqual([needs[1]!.id])
    })

    test('counts matches up to the bound, then says more match', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const needs = Array.from({ length: 1_001 }, () =>
        aNewNeed({ organizationId: organization.id, partnerId: partner.id, customFields: { description: 'winter coats' } }),
      )
      const other = aNewNeed({ organizationId: organization.id, partnerId: partner.id, customFields: { description: 'winter boots' } })
      await write((r) => r.needs.insertMany([...needs, other]))

      const page = await read().needs.list(organization.id, search('winter coat'), { page: 1, limit: 25 })
      expect(page).toMatchObject({ total: 1_000, totalIsLowerBound: true })
      // In list order: one createdAt, so by id, descending.
      expect(ids(page.items)).toEqual(ids(needs).sort().reverse().slice(0, 25))
    })

    test('lists in each sort’s order, the list’s own as tie-break', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const of = (status: 'NEW' | 'IN_PROGRESS' | 'RESOLVED', created: number, due?: number) =>
        aNeed({
          organizationId: organization.id,
          partnerId: partner.id,
          status,
          createdAt: minute(created),
          dueDate: due ? minute(due) : undefined,
        })
      const [a, b, c, d] = [of('RESOLVED', 1, 30), of('NEW', 2), of('IN_PROGRESS', 3, 10), of('NEW', 4, 20)]
      await insertNeeds(a!, b!, c!, d!)
      const sorted = async (sort: NeedSort, filter = {}) => ids((await read().needs.list(organization.id, filter, ALL, sort)).items)

      expect(await sorted('createdAt')).toEqual(ids([a!, b!, c!, d!]))
      expect(await sorted('-createdAt')).toEqual(ids([d!, c!, b!, a!]))
      expect(await sorted('dueDate')).toEqual(ids([c!, d!, a!, b!]))
      expect(await sorted('-dueDate')).toEqual(ids([a!, d!, c!, b!]))
      expect(await sorted('status')).toEqual(ids([d!, b!, c!, a!]))
      expect(await sorted('-status')).toEqual(ids([a!, c!, d!, b!]))
      expect(await sorted('-createdAt', { openDueBefore: minute(60) })).toEqual(ids([d!, c!]))
      expect(ids((await read().needs.list(organization.id, { openDueBefore: minute(60) }, ALL)).items)).toEqual(ids([c!, d!]))
    })
  })
}
