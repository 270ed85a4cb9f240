import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import { constituentSteps } from './constituent-support'
import type { ContractContext } from './contract-context'
import { ALL as every, ascendingIds, ids, minute } from './contract-support'

/** Constituent search: names and phone digits, in order, paged, in one organization. */
export function describeConstituentSearchContract(context: ContractContext): void {
  const { read, write } = context
  const { anOrganizationId, insertConstituents, aHome } = constituentSteps(context)

  describe('constituents', () => {
    describe('search', () => {
      const search = (org: string, query: string, page = every) => read().constituents.search(org, parseConstituentQuery(query), page)
      const found = async (org: string, query: string) => ids((await search(org, query)).items)

      /** Constituents with names and phones to search for, one without either, and a foreign look-alike. */
      async function searchWorld() {
        const org = await anOrganizationId()
        const foreignOrg = await anOrganizationId()
        const { member } = await aHome(org)
        const [tieLow, tieHigh] = ascendingIds(2) as [string, string]
        const chloe = member({
          firstName: 'Chloé',
          lastName: 'Núñez-García',
          phone: '+15552223333',
          email: 'Chloe@Example.org',
          createdAt: minute(1),
        })
        const olga = member({
          firstName: 'Olga',
          lastName: 'Smith',
          phone: '+15552224444',
          email: 'olga@example.org',
          createdAt: minute(2),
        })
        const bob = member({ firstName: 'Bob', lastName: 'Olsen', phone: '+442071234567', createdAt: minute(3) })
        const tieA = member({ id: tieLow, firstName: 'Émile', lastName: "O'Brien", createdAt: minute(4) })
        const tieB = member({ id: tieHigh, firstName: 'Zoë', lastName: 'Ölund', createdAt: minute(4) })
        const nameless = member({ email: 'anonymous@example.org', createdAt: minute(5) })
        // Oldest last, so an adapter answering in insertion order fails.
        await insertConstituents(nameless, tieB, tieA, bob, olga, chloe)
        const foreignHome = await aHome(foreignOrg)
        const foreign = foreignHome.member({
          firstName: 'Olga',
          lastName: 'Smith',
          phone: olga.phone,
          email: olga.email,
          createdAt: minute(9),
        })
        await insertConstituents(foreign)
        return { org, foreignOrg, chloe, olga, bob, tieA, tieB, nameless, foreign }
      }

      test('an empty query lists every constituent of the organization, newest first, id as tie-break', async () => {
        const w = await searchWorld()

        const expected = [w.nameless, w.tieB, w.tieA, w.bob, w.olga, w.chloe]
        expect(await search(w.org, '')).toEqual({ items: expected, total: 6 })
        expect(await search(w.org, '   ')).toEqual({ items: expected, total: 6 })
      })

      test('pages with page and limit, total counting every match', async () => {
        const w = await searchWorld()

        expect(await search(w.org, '', { page: 1, limit: 4 })).toEqual({ items: [w.nameless, w.tieB, w.tieA, w.bob], total: 6 })
        expect(await search(w.org, '', { page: 2, limit: 4 })).toEqual({ items: [w.olga, w.chloe], total: 6 })
        expect(await search(w.org, '', { page: 3, limit: 4 })).toEqual({ items: [], total: 6 })
        expect(await search(w.org, 'o', { page: 2, limit: 2 })).toEqual({ items: [w.bob, w.olga], total: 4 })
        expect(await search(w.org, '555', { page: 2, limit: 1 })).toEqual({ items: [w.chloe], total: 2 })
      })

      test('a query counts its matches up to the bound and says so past it; without a query the total stays exact', async () => {
        const w = await searchWorld()
        const bounded = (query: string, page: { page: number; limit: number }, countUpTo: number) =>
          read().constituents.search(w.org, parseConstituentQuery(query), page, countUpTo)

        // "o" matches four: counted up to 2, or to the end of the page asked for when further, one past it read.
        expect(await bounded('o', { page: 1, limit: 1 }, 2)).toEqual({ items: [w.tieB], total: 2, totalIsLowerBound: true })
        expect(await bounded('o', { page: 3, limit: 1 }, 2)).toEqual({ items: [w.bob], total: 3, totalIsLowerBound: true })
        expect(await bounded('o', { page: 4, limit: 1 }, 2)).toEqual({ items: [w.olga], total: 4 })
        expect(await bounded('o', { page: 5, limit: 1 }, 2)).toEqual({ items: [], total: 4 })
        expect(await bounded('o', { page: 1, limit: 2 }, 4)).toEqual({ items: [w.tieB, w.tieA], total: 4 })
        // Phone digits, and names with digits, alike; the other organization's look-alike is never counted.
        expect(await bounded('555', { page: 1, limit: 1 }, 0)).toEqual({ items: [w.olga], total: 1, totalIsLowerBound: true })
        expect(await bounded('olga smith 2224', { page: 1, limit: 1 }, 0)).toEqual({ items: [w.olga], total: 1 })
        expect(await bounded('olga@example.org', { page: 1, limit: 1 }, 0)).toEqual({ items: [w.olga], total: 1 })
        expect(await bounded('', { page: 1, limit: 1 }, 2)).toEqual({ items: [w.nameless], total: 6 })
      })

      test('pages of a bounded count, however small the bound, hold every match once, in list order', async () => {
        const w = await searchWorld()

        for (const query of ['o', 'ol', '555', 'smith 555', 'o 5', 'olga', 'chloe@example.org']) {
          const all = await found(w.org, query)
          for (const countUpTo of [0, 1, 3]) {
            for (const limit of [1, 2, 3]) {
              const paged: string[] = []
              for (let page = 1; ; page++) {
                const answer = await read().constituents.search(w.org, parseConstituentQuery(query), { page, limit }, countUpTo)
                paged.push(...ids(answer.items))
                // A bounded total is one past what was counted; an exact one is the truth.
                if (answer.totalIsLowerBound) expect(all.length).toBeGreaterThan(answer.total)
                else expect(answer.total).toBe(all.length)
                // Another page follows exactly when the total, bounded or not, says so.
                if (!answer.totalIsLowerBound && page * limit >= answer.total) break
              }
              expect({ query, countUpTo, limit, paged }).toEqual({ query, countUpTo, limit, paged: all })
            }
          }
        }
      })

      test('searchAfter walks the matches in list order by keyset, batch after batch, in the organization only', async () => {
        const w = await searchWorld()
        const walk = async (query: string, size: number) => {
          const batches: string[][] = []
          for (let after: Constituent | undefined; ; ) {
            const batch = await read().constituents.searchAfter(w.org, parseConstituentQuery(query), after, size)
            if (batch.length > 0) batches.push(ids(batch))
            if (batch.length < size) return batches
            after = batch.at(-1)
          }
        }

        expect(await read().constituents.searchAfter(w.org, parseConstituentQuery(''), undefined, 100)).toEqual([
          w.nameless,
          w.tieB,
          w.tieA,
          w.bob,
          w.olga,
          w.chloe,
        ])
        expect(await walk('', 4)).toEqual([ids([w.nameless, w.tieB, w.tieA, w.bob]), ids([w.olga, w.chloe])])
        // The two of one time are told apart by id.
        expect(await walk('', 1)).toEqual(ids([w.nameless, w.tieB, w.tieA, w.bob, w.olga, w.chloe]).map((id) => [id]))
        expect(await walk('o', 2)).toEqual([ids([w.tieB, w.tieA]), ids([w.bob, w.olga])])
        expect(await walk('555', 1)).toEqual([[w.olga.id], [w.chloe.id]])
        expect(await walk('olga@example.org', 1)).toEqual([[w.olga.id]])
        expect(await walk('nobody', 2)).toEqual([])
      })

      test('matches words that begin the first or last name, case- and accent-insensitive', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'chlo')).toEqual([w.chloe.id])
        expect(await found(w.org, 'CHLOÉ')).toEqual([w.chloe.id])
        expect(await found(w.org, 'nunez')).toEqual([w.chloe.id])
        expect(await found(w.org, 'Núñ')).toEqual([w.chloe.id])
        expect(await found(w.org, 'garc')).toEqual([w.chloe.id])
        expect(await found(w.org, 'emile')).toEqual([w.tieA.id])
        expect(await found(w.org, 'obri')).toEqual([w.tieA.id])
        expect(await found(w.org, "O'Bri")).toEqual([w.tieA.id])
        expect(await found(w.org, 'zoe olund')).toEqual([w.tieB.id])
      })

      test('a single letter matches the names beginning with it and nothing else', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'o')).toEqual([w.tieB.id, w.tieA.id, w.bob.id, w.olga.id])
        expect(await found(w.org, 'O')).toEqual([w.tieB.id, w.tieA.id, w.bob.id, w.olga.id])
        expect(await found(w.org, 'z')).toEqual([w.tieB.id])
        expect(await found(w.org, 'x')).toEqual([])
      })

      test('every word must match; their order does not matter', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'olga smi')).toEqual([w.olga.id])
        expect(await found(w.org, 'SMITH  olg')).toEqual([w.olga.id])
        expect(await found(w.org, 'olga olsen')).toEqual([])
        expect(await found(w.org, 'ol')).toEqual([w.tieB.id, w.bob.id, w.olga.id])
      })

      test('matches the start of a name word only, never its middle', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'hloe')).toEqual([])
        expect(await found(w.org, 'mith')).toEqual([])
        expect(await found(w.org, 'arcia')).toEqual([])
      })

      test('matches any part of the phone’s digits, the +1 country code included or not', async () => {
        const w = await searchWorld()

        expect(await found(w.org, '555')).toEqual([w.olga.id, w.chloe.id])
        expect(await found(w.org, '555-222-3')).toEqual([w.chloe.id])
        expect(await found(w.org, '(555) 222 4444')).toEqual([w.olga.id])
        expect(await found(w.org, '+1 555 222')).toEqual([w.olga.id, w.chloe.id])
        expect(await found(w.org, '15552223333')).toEqual([w.chloe.id])
        expect(await found(w.org, '+44 20 7123')).toEqual([w.bob.id])
        // The middle and the end of a number, national or international.
        expect(await found(w.org, '2223333')).toEqual([w.chloe.id])
        expect(await found(w.org, '4444')).toEqual([w.olga.id])
        expect(await found(w.org, '2071234567')).toEqual([w.bob.id])
        expect(await found(w.org, '0712')).toEqual([w.bob.id])
        expect(await found(w.org, '5222')).toEqual([w.olga.id, w.chloe.id])
        expect(await found(w.org, '2224443')).toEqual([])
        expect(await found(w.org, '+1 999')).toEqual([])
      })

      test('a word of digits among names matches any part of the phone, the other words the names', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'chloe 3333')).toEqual([w.chloe.id])
        expect(await found(w.org, 'smith 2224')).toEqual([w.olga.id])
        expect(await found(w.org, '2224 smith')).toEqual([w.olga.id])
        expect(await found(w.org, 'olga 3333')).toEqual([])
        expect(await found(w.org, 'smith 555')).toEqual([w.olga.id])
      })

      test('matches a whole email, case-insensitive', async () => {
        const w = await searchWorld()

        expect(await found(w.org, 'chloe@example.org')).toEqual([w.chloe.id])
        expect(await found(w.org, '  CHLOE@EXAMPLE.ORG ')).toEqual([w.chloe.id])
        expect(await found(w.org, 'anonymous@example.org')).toEqual([w.nameless.id])
        expect(await found(w.org, 'chloe@example')).toEqual([])
        expect(await found(w.org, 'hloe@example.org')).toEqual([])
      })

      test('never answers another organization’s constituents', async () => {
        const w = await searchWorld()

        for (const query of ['', 'olga', 'olga smith', 'o', '555', '+1 555 222 4444', 'olga@example.org']) {
          expect(await found(w.org, query)).not.toContain(w.foreign.id)
          expect(await search(w.foreignOrg, query)).toEqual({ items: [w.foreign], total: 1 })
        }
        expect(await search(randomUUID(), '')).toEqual({ items: [], total: 0 })
      })

      test('follows updates and deletes', async () => {
        const w = await searchWorld()

        await write(async (r) => {
          await r.constituents.update({
            ...w.olga,
            firstName: 'Helga',
            phone: '+15557778888',
            email: 'helga@example.org',
            updatedAt: minute(30),
          })
          await r.constituents.delete(w.org, w.chloe.id)
          const { lastName: _lastName, ...withoutLastName } = w.bob
          await r.constituents.update(withoutLastName)
        })

        expect(await found(w.org, 'olga')).toEqual([])
        expect(await found(w.org, 'helg smi')).toEqual([w.olga.id])
        expect(await found(w.org, '555222')).toEqual([])
        expect(await found(w.org, '555777')).toEqual([w.olga.id])
        expect(await found(w.org, 'olga@example.org')).toEqual([])
        expect(await found(w.org, 'helga@example.org')).toEqual([w.olga.id])
        expect(await found(w.org, 'chlo')).toEqual([])
        expect(await found(w.org, 'chloe@example.org')).toEqual([])
        expect(await found(w.org, 'olsen')).toEqual([])
        expect(await found(w.org, 'bob')).toEqual([w.bob.id])
        expect((await search(w.org, '')).total).toBe(5)
        expect(await found(w.foreignOrg, 'olga')).toEqual([w.foreign.id])
      })
    })
  })
}
