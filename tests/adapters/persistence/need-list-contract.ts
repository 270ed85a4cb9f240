import { describe, expect, test } from 'bun:test'
import type { NeedFilter } from '../../../src/application/ports/repositories/need-repository'
import type { Need } from '../../../src/domain/needs/need'
import { aNeed, aPartner } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { ALL, ascendingIds, ids, minute } from './contract-support'

/** Needs' lists: filtered, paged and totalled, and walked by keyset for exports. */
export function describeNeedListContract(context: ContractContext): void {
  const { read, write, anOrganizationWithPartner, aMemberOf, aConstituentOf, insertNeeds } = context
  describe('needs', () => {
    describe('list', () => {
      /** One organization's needs spread over partners, statuses, assignees and a constituent, plus a foreign one. */
      async function listWorld() {
        const { organization, partner: p1 } = await anOrganizationWithPartner()
        const p2 = aPartner({ organizationId: organization.id })
        await write((r) => r.partners.insert(p2))
        const member = await aMemberOf(organization.id)
        const { constituentId, householdId } = await aConstituentOf(organization.id)
        const org = organization.id
        const [tieLow, tieHigh] = ascendingIds(2) as [string, string]
        const n1 = aNeed({ organizationId: org, partnerId: p1.id, status: 'NEW', createdAt: minute(1) })
        const n2 = aNeed({ organizationId: org, partnerId: p2.id, status: 'IN_PROGRESS', assignedTo: member.id, createdAt: minute(2) })
        const n3 = aNeed({
          id: tieLow,
          organizationId: org,
          partnerId: p1.id,
          status: 'RESOLVED',
          constituentId,
          householdId,
          createdAt: minute(3),
        })
        const n4 = aNeed({
          id: tieHigh,
          organizationId: org,
          partnerId: p1.id,
          status: 'NEW',
          assignedTo: member.id,
          constituentId,
          createdAt: minute(3),
        })
        const n5 = aNeed({ organizationId: org, partnerId: p2.id, status: 'ESCALATED', createdAt: minute(4) })
        // Oldest first, so an adapter that answers in insertion order fails.
        await insertNeeds(n1, n2, n3, n4, n5)
        const { organization: foreignOrg, partner: foreignPartner } = await anOrganizationWithPartner()
        const foreign = aNeed({ organizationId: foreignOrg.id, partnerId: foreignPartner.id, status: 'NEW', createdAt: minute(9) })
        await insertNeeds(foreign)
        return { org, p1, p2, member, constituentId, n1, n2, n3, n4, n5, foreign }
      }

      test('lists newest first, id as tie-break, only the organization’s needs', async () => {
        const w = await listWorld()
        const page = await read().needs.list(w.org, {}, ALL)

        expect(page.total).toBe(5)
        // n3 and n4 share a createdAt: the higher id comes first.
        expect(page.items).toEqual([w.n5, w.n4, w.n3, w.n2, w.n1])
      })

      test('orders needs with one createdAt by id, descending', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const needs = ascendingIds(4).map((id) =>
          aNeed({ id, organizationId: organization.id, partnerId: partner.id, createdAt: minute(10) }),
        )
        await insertNeeds(...needs)

        expect(ids((await read().needs.list(organization.id, {}, ALL)).items)).toEqual(ids(needs).reverse())
      })

      test('filters by periods of creation and of resolution, bounds included at the start and not at the end, with the other filters', async () => {
        const { organization, partner } = await anOrganizationWithPartner()
        const org = organization.id
        const at = (m: number, resolved?: number) =>
          aNeed({
            organizationId: org,
            partnerId: partner.id,
            createdAt: minute(m),
            ...(resolved !== undefined ? { status: 'RESOLVED' as const, resolvedAt: minute(resolved) } : {}),
          })
        const [early, start, middle, end] = [at(1, 2), at(2, 5), at(3), at(4, 6)]
        await insertNeeds(early, start, middle, end)
        const found = async (filter: NeedFilter, limit = 100) => {
          const { items, total } = await read().needs.list(org, filter, { page: 1, limit })
          return { ids: ids(items), total }
        }
        expect(await found({ createdFrom: minute(2), createdTo: minute(4) })).toEqual({ ids: ids([middle, start]), total: 2 })
        expect(await found({ createdFrom: minute(3) }, 1)).toEqual({ ids: ids([end]), total: 2 })
        expect(await found({ resolvedFrom: minute(5), resolvedTo: minute(6) })).toEqual({ ids: ids([start]), total: 1 })
        expect(await found({ resolvedTo: minute(6) })).toEqual({ ids: ids([start, early]), total: 2 })
        expect(await found({ createdTo: minute(2), resolvedFrom: minute(2), statuses: ['RESOLVED'] })).toEqual({
          ids: ids([early]),
          total: 1,
        })
        expect(await found({ resolvedFrom: minute(1), partnerId: partner.id, openDueBefore: minute(99) })).toEqual({ ids: [], total: 0 })
        expect(await found({ createdFrom: minute(4), createdTo: minute(2) })).toEqual({ ids: [], total: 0 })
        // An export's batches keep them too.
        expect(ids(await read().needs.listAfter(org, { resolvedTo: minute(6) }, undefined, 100))).toEqual(ids([start, early]))
      })

      test('filters by statuses', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { statuses: ['NEW', 'ESCALATED'] }, ALL)).toEqual({ items: [w.n5, w.n4, w.n1], total: 3 })
        expect(await read().needs.list(w.org, { statuses: ['ESCALATED', 'NEW', 'ESCALATED', 'NEW'] }, ALL)).toEqual({
          items: [w.n5, w.n4, w.n1],
          total: 3,
        })
        expect(await read().needs.list(w.org, { statuses: ['RESOLVED'] }, ALL)).toEqual({ items: [w.n3], total: 1 })
        expect(await read().needs.list(w.org, { statuses: ['PENDING_INTERNAL'] }, ALL)).toEqual({ items: [], total: 0 })
      })

      test('matches nothing with an empty statuses list', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { statuses: [] }, ALL)).toEqual({ items: [], total: 0 })
      })

      test('filters by partner', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { partnerId: w.p2.id }, ALL)).toEqual({ items: [w.n5, w.n2], total: 2 })
      })

      test('filters by assignee', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { assignedTo: w.member.id }, ALL)).toEqual({ items: [w.n4, w.n2], total: 2 })
      })

      test('filters by constituent', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { constituentId: w.constituentId }, ALL)).toEqual({ items: [w.n4, w.n3], total: 2 })
      })

      test('combines filters', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { partnerId: w.p1.id, statuses: ['NEW'] }, ALL)).toEqual({ items: [w.n4, w.n1], total: 2 })
        expect(
          await read().needs.list(
            w.org,
            { partnerId: w.p1.id, assignedTo: w.member.id, constituentId: w.constituentId, statuses: ['NEW', 'RESOLVED'] },
            ALL,
          ),
        ).toEqual({
          items: [w.n4],
          total: 1,
        })
      })

      test('never lists another organization’s needs, even when filtering by its partner', async () => {
        const w = await listWorld()
        expect(await read().needs.list(w.org, { partnerId: w.foreign.partnerId }, ALL)).toEqual({ items: [], total: 0 })
        expect(await read().needs.list(w.foreign.organizationId, {}, ALL)).toEqual({ items: [w.foreign], total: 1 })
      })

      test('pages with page and limit, total counting every match', async () => {
        const w = await listWorld()
        const page = (n: number) => read().needs.list(w.org, {}, { page: n, limit: 2 })

        expect(await page(1)).toEqual({ items: [w.n5, w.n4], total: 5 })
        expect(await page(2)).toEqual({ items: [w.n3, w.n2], total: 5 })
        expect(await page(3)).toEqual({ items: [w.n1], total: 5 })
        expect(await page(4)).toEqual({ items: [], total: 5 })
        expect(await read().needs.list(w.org, { statuses: ['NEW', 'IN_PROGRESS'] }, { page: 2, limit: 1 })).toEqual({
          items: [w.n2],
          total: 3,
        })
      })

      describe('listAfter (exports, by keyset)', () => {
        /** Every batch of `size` from the start, each read after the last one's final need. */
        async function walk(org: string, filter: NeedFilter, size: number) {
          const batches: Need[][] = []
          for (let after: Need | undefined; ; ) {
            const batch = await read().needs.listAfter(org, filter, after, size)
            if (batch.length > 0) batches.push(batch)
            if (batch.length < size) return batches
            after = batch.at(-1)
          }
        }

        test('walks the whole list in list order, batch after batch, each need once', async () => {
          const w = await listWorld()
          expect(await walk(w.org, {}, 2)).toEqual([[w.n5, w.n4], [w.n3, w.n2], [w.n1]])
          expect(await walk(w.org, {}, 5)).toEqual([[w.n5, w.n4, w.n3, w.n2, w.n1]])
        })

        test('steps over needs of the same time by id, however many share it', async () => {
          const { organization, partner } = await anOrganizationWithPartner()
          const needs = ascendingIds(5).map((id) =>
            aNeed({ id, organizationId: organization.id, partnerId: partner.id, createdAt: minute(10) }),
          )
          await insertNeeds(...needs)
          expect((await walk(organization.id, {}, 2)).flat()).toEqual([...needs].reverse())
        })

        test('keeps the list filters, and only the organization’s needs', async () => {
          const w = await listWorld()
          expect((await walk(w.org, { statuses: ['NEW', 'ESCALATED'] }, 1)).flat()).toEqual([w.n5, w.n4, w.n1])
          expect((await walk(w.org, { partnerId: w.p1.id, assignedTo: w.member.id }, 1)).flat()).toEqual([w.n4])
          expect((await walk(w.org, { constituentId: w.constituentId }, 1)).flat()).toEqual([w.n4, w.n3])
          expect(await walk(w.org, { statuses: [] }, 2)).toEqual([])
          expect(await walk(w.org, { partnerId: w.foreign.partnerId }, 2)).toEqual([])
          expect(await read().needs.listAfter(w.foreign.organizationId, {}, undefined, 10)).toEqual([w.foreign])
        })

        test('a need added during a walk, newer than where it stands, neither shifts nor repeats what follows', async () => {
          const w = await listWorld()
          const first = await read().needs.listAfter(w.org, {}, undefined, 2)
          await insertNeeds(aNeed({ organizationId: w.org, partnerId: w.p1.id, createdAt: minute(8) }))
          expect(await read().needs.listAfter(w.org, {}, first.at(-1), 10)).toEqual([w.n3, w.n2, w.n1])
        })
      })

      test('totals follow every change of status and partner, and a rolled-back change leaves them as they were', async () => {
        const w = await listWorld()
        const total = async (filter: NeedFilter) => (await read().needs.list(w.org, filter, { page: 1, limit: 1 })).total
        const totals = async () => [
          await total({}),
          await total({ statuses: ['NEW'] }),
          await total({ partnerId: w.p2.id }),
          await total({ partnerId: w.p2.id, statuses: ['NEW', 'RESOLVED'] }),
        ]
        expect(await totals()).toEqual([5, 2, 2, 0])

        await write((r) => r.needs.update({ ...w.n1, partnerId: w.p2.id, status: 'RESOLVED' }))
        await write((r) => r.needs.update({ ...w.n2, status: 'NEW' }))
        expect(await totals()).toEqual([5, 2, 3, 2])
        await write((r) => r.needs.update({ ...w.n2, status: 'NEW', customFields: { unchanged: 'counts' } }))
        expect(await totals()).toEqual([5, 2, 3, 2])

        const failure = new Error('after the change')
        await expect(
          write(async (r) => {
            await r.needs.update({ ...w.n4, partnerId: w.p2.id })
            await r.needs.insert(aNeed({ organizationId: w.org, partnerId: w.p2.id, status: 'NEW' }))
            throw failure
          }),
        ).rejects.toBe(failure)
        expect(await totals()).toEqual([5, 2, 3, 2])
        expect(await read().needs.list(w.foreign.organizationId, { statuses: ['NEW'] }, ALL)).toEqual({ items: [w.foreign], total: 1 })
      })
    })
  })
}
