import { describe, expect, test } from 'bun:test'
import type { NeedSearch } from '../../../src/domain/needs/search'
import { anOrganization } from '../../support/builders'
import { needsToPlan } from './plan-data'
import { planningSqlite, planOf } from './recording-sqlite'

// docs/api/needs.md "Search and sort": a need is found by its person's name through the people's own search index
// (constituent_search), their needs by needs_by_constituent, its own words by need_terms' keys; nothing is scanned.
// On SQLite as on PostgreSQL (postgres-query-plans.test.ts).
const organization = anOrganization()
const planning = planningSqlite(async (r) => {
  await r.organizations.insert(organization)
  return needsToPlan(r, organization.id)
})

async function plansOf(q: string, kinds: NeedSearch['kinds']) {
  const { result, statements } = await planning.recording.measure((r) =>
    r.needs.list(organization.id, { search: { words: q.split(' '), kinds } }, { page: 1, limit: 25 }),
  )
  const plans = statements
    .filter(({ sql }) => /from "need_terms"/.test(sql))
    .map((statement) => planOf(planning.planner, statement).join(' | '))
  return { total: result.total, plans }
}

describe('SQLite query plans of need search', () => {
  test('a person’s name is looked up in the people’s full-text index and their needs by needs_by_constituent, nothing scanned', async () => {
    for (const q of ['yol', 'mamani yolanda']) {
      const { total, plans } = await plansOf(q, ['r', 'd', 'n', 'p'])

      expect({ q, total }).toEqual({ q, total: 30 })
      expect(plans).toHaveLength(3) // the count of the longest word’s entries, the count of the matches, the page
      for (const plan of plans) {
        expect(plan).toContain('SEARCH need_terms USING PRIMARY KEY (organization_id=? AND term>? AND term<?)')
        expect(plan).toContain('SCAN constituent_search VIRTUAL TABLE')
        // Not covering: a confidential need is found by its person only by readers of confidential needs.
        expect(plan).toContain('SEARCH needs USING INDEX needs_by_constituent (organization_id=? AND constituent_id=?)')
        expect(plan).not.toMatch(/(^|\| )SCAN (needs|need_terms|constituents)\b/)
      }
    }
  })

  test('a reader who may not find needs by names never reads the people', async () => {
    const { total, plans } = await plansOf('xio', ['r', 'd'])

    expect(total).toBe(0)
    for (const plan of plans) expect(plan).not.toContain('constituent')
  })
})
