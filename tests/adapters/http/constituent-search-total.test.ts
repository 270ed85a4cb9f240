import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SEARCH_TOTAL_BOUND } from '../../../src/domain/constituents/search'
import { startTestServer, type TestServer } from '../../support/http'
import { linksOf, pageOfLink } from './helpers'

// docs/api/conventions.md "Lists": a search counts its matches up to a bound and says when more match; paging stays whole.
// Over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres).
let api: TestServer
let token: string
const PEOPLE = SEARCH_TOTAL_BOUND + 1

/** A first name of letters only for person `n`: Aaa, Aab, … */
const firstNameOf = (n: number) => `A${[26 * 26, 26, 1].map((unit) => String.fromCharCode(97 + (Math.floor(n / unit) % 26))).join('')}`

beforeAll(async () => {
  api = await startTestServer()
  const org = await api.world.otherOrganization()
  token = await api.tokenFor(org, 'org_admin')
  // One more Garcia than the bound, and one other person; brought in by an import, as an organization would.
  const rows = Array.from({ length: PEOPLE }, (_, n) => `${firstNameOf(n)},Garcia`)
  const csv = ['firstName,lastName', ...rows, 'Bea,Stone', ''].join('\r\n')
  const imported = await fetch(`${api.url}/api/constituents/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv; charset=utf-8' },
    body: csv,
  })
  expect(await imported.json()).toMatchObject({ created: PEOPLE + 1, errors: [] })
}, 60_000)
afterAll(() => api.stop())

const search = (query: string) => api.call<Array<{ id: string; lastName: string }>>('GET', `/api/constituents?${query}`, { token })

describe('GET /api/constituents: the total of a query', () => {
  test('past the bound is the bound, marked as a lower bound; a next page, no last', async () => {
    const response = await search('query=garcia')

    expect(response.status).toBe(200)
    expect(response.body).toHaveLength(25)
    expect(response.headers.get('x-total-count')).toBe(String(SEARCH_TOTAL_BOUND))
    expect(response.headers.get('x-total-count-is-lower-bound')).toBe('true')
    const links = linksOf(response)
    expect(Object.keys(links).sort()).toEqual(['first', 'next'])
    expect(pageOfLink(links.next)).toEqual({ page: 2, limit: 25 })
  })

  test('is exact, without the mark, when it is not past the bound, and without a query', async () => {
    const few = await search('query=stone')
    expect(few.headers.get('x-total-count')).toBe('1')
    expect(few.headers.get('x-total-count-is-lower-bound')).toBeNull()
    const everyone = await search('limit=1')
    expect(everyone.headers.get('x-total-count')).toBe(String(PEOPLE + 1))
    expect(everyone.headers.get('x-total-count-is-lower-bound')).toBeNull()
    expect(Object.keys(linksOf(everyone)).sort()).toEqual(['first', 'last', 'next'])
  })

  test('a page past the bound counts to its own end, and the last page is exact: every match once, in list order', async () => {
    const seen: string[] = []
    for (let page = 1; ; page++) {
      const response = await search(`query=garcia&limit=100&page=${page}`)
      expect(response.status).toBe(200)
      seen.push(...response.body.map((c) => c.id))
      const links = linksOf(response)
      if (response.headers.get('x-total-count-is-lower-bound') === 'true') {
        expect(Number(response.headers.get('x-total-count'))).toBe(Math.max(SEARCH_TOTAL_BOUND, page * 100))
        expect(pageOfLink(links.next)).toEqual({ page: page + 1, limit: 100 })
        continue
      }
      expect(response.headers.get('x-total-count')).toBe(String(PEOPLE))
      expect(links.next).toBeUndefined()
      expect(pageOfLink(links.last)).toEqual({ page, limit: 100 })
      break
    }
    // The same as the list of everyone (its order, exact total), the one who is no Garcia left out.
    const everyone: Array<{ id: string; lastName: string }> = []
    for (let page = 1; everyone.length < PEOPLE + 1; page++) everyone.push(...(await search(`limit=100&page=${page}`)).body)
    expect(seen).toEqual(everyone.filter((c) => c.lastName === 'Garcia').map((c) => c.id))
    expect(new Set(seen).size).toBe(PEOPLE)
  })
})
