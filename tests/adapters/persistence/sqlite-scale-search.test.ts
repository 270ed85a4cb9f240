import { describe, expect, test } from 'bun:test'
import { parseConstituentQuery, SEARCH_TOTAL_BOUND } from '../../../src/domain/constituents/search'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { PageRequest } from '../../../src/domain/shared/page'
import type { Repositories } from '../../../src/application/ports/repositories'
import { ids } from './contract-support'
import type { Recorded } from './recording-sqlite'
import { big, constituents, middle, organizations, people, SIZES, small, twin } from './sqlite-scale-support'
import { memory, planner, planOf, recording, sqlite, storeTheConstituents } from './sqlite-scale-support'

// Among 20,000 constituents (sqlite-scale-support.ts), a search is driven by the FTS index or walks the
// organization newest first, counts no further than its bound, and answers as the memory adapter does.

describe('SQLite with 20,000 constituents', () => {
  storeTheConstituents()

  const search = (r: Repositories, organizationId: string, query: string, page: PageRequest = { page: 1, limit: 25 }) =>
    r.constituents.search(organizationId, parseConstituentQuery(query), page)

  test('every constituent went in through the port', async () => {
    const totals = await Promise.all(
      organizations.map(async (o) => (await search(sqlite.persistence.repositories, o.id, '', { page: 1, limit: 1 })).total),
    )
    expect(totals).toEqual([SIZES[0] + Object.keys(people).length, SIZES[1], SIZES[2] + 1])
    expect(totals.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(20_000)
  })

  describe('search', () => {
    /** The FTS match the adapter sent, and how many rows the index itself answers for it. */
    function ftsMatches(statements: Recorded[]) {
      // Each word of a MATCH is a quoted prefix.
      const match = statements.flatMap((s) => s.params).find((p) => typeof p === 'string' && p.endsWith('"*')) as string
      const { n } = planner.query('SELECT count(*) AS n FROM constituent_search WHERE constituent_search MATCH ?').get(match) as {
        n: number
      }
      return n
    }

    for (const [query, expected] of [
      ['xiom quis', ['namesake', 'sameNameBirth', 'original']],
      ['QUÍSPE', ['namesake', 'sameLastStreet', 'sameNameBirth', 'original']],
      ['+1 (555) 000-1000', ['samePhone', 'original']],
      ['5550002', ['namesake', 'sameLastStreet', 'sameNameBirth']],
      // Any part of a number: the middle and the end, still one look in the index.
      ['50001000', ['samePhone', 'original']],
      ['5000200', ['namesake', 'sameLastStreet', 'sameNameBirth']],
    ] as const) {
      test(`"${query}" is driven by the FTS index and reads only the matching rows`, async () => {
        const { result, statements } = await recording.measure((r) => search(r, big.id, query))

        expect(result).toEqual({ items: expected.map((name) => people[name]), total: expected.length })
        // The total from the index alone (the words as whole terms first, then as prefixes), then the page:
        // few matches, read by their key.
        const [whole, count, page] = statements
        expect(statements).toHaveLength(3)
        for (const counting of [whole!, count!]) {
          expect(counting.rows).toBe(1)
          expect(planOf(counting).filter((line) => / constituents\b/.test(line))).toEqual([])
        }
        expect(page!.rows).toBe(expected.length)
        // The index answers exactly the rows read from constituents, each found by its key.
        expect(ftsMatches(statements)).toBe(expected.length)
        const pagePlan = planOf(page!)
        expect(pagePlan.some((line) => line.includes('constituent_search VIRTUAL TABLE'))).toBe(true)
        expect(pagePlan.filter((line) => / constituents\b/.test(line))).toEqual(['SEARCH constituents USING INTEGER PRIMARY KEY (rowid=?)'])
      })
    }

    test('a query of many matches counts up to the bound in the index and reads one page walking the organization newest first', async () => {
      const olgas = constituents.filter((c) => c.organizationId === big.id && c.firstName === 'Olga').length
      const { result, statements } = await recording.measure((r) => search(r, big.id, 'o'))

      // The Olgas of the background and Zed Ortiz, the newest of them: more than the bound, so the total is it.
      expect(olgas).toBeGreaterThan(SEARCH_TOTAL_BOUND)
      expect(result.total).toBe(SEARCH_TOTAL_BOUND)
      expect(result.totalIsLowerBound).toBe(true)
      expect(result.items[0]).toEqual(people.sameEmail)
      expect(result.items.slice(1).every((c) => c.firstName === 'Olga')).toBe(true)
      expect(ftsMatches(statements)).toBe(olgas + 1)
      // "o" is no whole term; as a prefix the count reads the index alone, and no further than one past the bound.
      const [, count, page] = statements
      expect(statements).toHaveLength(3)
      expect(planOf(count!).filter((line) => / constituents\b/.test(line))).toEqual([])
      expect(count!.params).toContain(SEARCH_TOTAL_BOUND + 1)
      // The page: the organization in list order, no sort, no set of matches gathered first (no subquery, no
      // index of the search); each row's own terms are tested and the walk stops at the page's 25th match.
      expect(planOf(page!)).toEqual(['SEARCH constituents USING INDEX constituents_newest (organization_id=?)'])
      expect(page!.rows).toBe(25)
      expect((await search(sqlite.persistence.repositories, small.id, 'x')).items).toEqual([twin])
    })

    test('a common whole name is counted as a whole term, read as FTS5 goes, up to the bound: one count and the walk', async () => {
      const { result, statements } = await recording.measure((r) => search(r, big.id, 'olga'))

      expect(result).toMatchObject({ total: SEARCH_TOTAL_BOUND, totalIsLowerBound: true })
      expect(result.items.every((c) => c.firstName === 'Olga')).toBe(true)
      const [count, page] = statements
      expect(statements).toHaveLength(2)
      // The word as a whole term (no `*`): its list is read as it goes, so the count stops one past the bound.
      expect(count!.params).toContain(SEARCH_TOTAL_BOUND + 1)
      expect(count!.params.some((p) => typeof p === 'string' && p.endsWith('tolga"'))).toBe(true)
      expect(planOf(page!)).toEqual(['SEARCH constituents USING INDEX constituents_newest (organization_id=?)'])
      expect(page!.rows).toBe(25)
    })

    test('a page past the bound still counts to its end, so the next one is known, and stays in list order', async () => {
      const deep = { page: SEARCH_TOTAL_BOUND / 25 + 2, limit: 25 }
      const fromSqlite = await search(sqlite.persistence.repositories, big.id, 'o', deep)

      expect(fromSqlite).toEqual(await search(memory.repositories, big.id, 'o', deep))
      expect(fromSqlite.total).toBe(deep.page * deep.limit)
      expect(fromSqlite.totalIsLowerBound).toBe(true)
      expect(fromSqlite.items).toHaveLength(25)
    })

    test('an email is one indexed equality', async () => {
      const { result, statements } = await recording.measure((r) => search(r, big.id, 'Xiomara.Quispe@example.org'))

      expect(result).toEqual({ items: [people.sameEmail, people.original], total: 2 })
      expect(statements.map((s) => s.rows)).toEqual([1, 2])
      for (const plan of statements.map(planOf)) {
        expect(plan.filter((line) => / constituents\b/.test(line))).toEqual([
          'SEARCH constituents USING INTEGER PRIMARY KEY (rowid=?)',
          'SEARCH constituents USING COVERING INDEX constituents_by_email (email_key=? AND organization_id=?)',
        ])
      }
    })

    test('an empty query reads one page in index order, never sorting nor counting the organization', async () => {
      const { result, statements } = await recording.measure((r) => search(r, middle.id, '', { page: 3, limit: 25 }))

      expect(result.items).toHaveLength(25)
      expect(result.total).toBe(SIZES[1])
      const [page, total] = statements
      expect(planOf(page!)).toEqual(['SEARCH constituents USING INDEX constituents_newest (organization_id=?)'])
      expect(page!.rows).toBe(25)
      // The total is one row kept by triggers, not a count of the organization's constituents.
      expect(planOf(total!)).toEqual(['SEARCH constituent_counts USING PRIMARY KEY (organization_id=?)'])
      expect(total!.rows).toBe(1)
    })
  })

  describe('memory and SQLite answer alike', () => {
    const queries = [
      'xiom quis',
      'quispe',
      'mar',
      'gar',
      'o',
      'zoe',
      'sofia gar',
      'MARÍA',
      '555 000 1000',
      '+1 300 000',
      '3000000',
      'user123@example.org',
      'nobody@example.org',
      '',
    ]

    test('on searches, pages and totals', async () => {
      const asks: Array<[Organization, PageRequest]> = [
        [big, { page: 1, limit: 25 }],
        [small, { page: 4, limit: 10 }],
      ]
      for (const [organization, page] of asks) {
        for (const query of queries) {
          const fromSqlite = await search(sqlite.persistence.repositories, organization.id, query, page)
          const fromMemory = await search(memory.repositories, organization.id, query, page)
          expect({ query, ids: ids(fromSqlite.items), total: fromSqlite.total }).toEqual({
            query,
            ids: ids(fromMemory.items),
            total: fromMemory.total,
          })
          expect(fromSqlite).toEqual(fromMemory)
        }
      }
      // The broad queries really are broad: the comparison is not between two empty answers.
      expect(await search(sqlite.persistence.repositories, big.id, 'mar')).toMatchObject({
        total: SEARCH_TOTAL_BOUND,
        totalIsLowerBound: true,
      })
    })
  })
})
