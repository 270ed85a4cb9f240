import { describe, expect, test } from 'bun:test'
import { anOrganization } from '../../support/builders'
import { minute } from './contract-support'
import { needsToPlan } from './plan-data'
import { planningSqlite, planOf, type Planning } from './recording-sqlite'

// docs/api/needs.md "Needs" and "Reports": what is overdue is read on the partial index of open needs by due date
// (needs_open_by_due) and the kept counts; the indexes of needs by assignee and person hold only the needs
// that have one, and retention's only resolved needs with their text
// (docs/performance/bounds.md "What bounds each route"), and the lookups still search them. On SQLite as on
// PostgreSQL (postgres-query-plans.test.ts).
const organization = anOrganization()
const planning = planningSqlite(async (r) => {
  await r.organizations.insert(organization)
  return needsToPlan(r, organization.id)
})

describe('SQLite query plans of due dates', () => {
  test("an overdue list and the report's overdue count search needs_open_by_due and the kept counts, never scan needs", async () => {
    const now = minute(1500)
    const { statements: list } = await planning.recording.measure((r) =>
      r.needs.list(organization.id, { openDueBefore: now }, { page: 1, limit: 25 }),
    )
    const { statements: report } = await planning.recording.measure((r) =>
      r.needReports.figures(organization.id, { from: '2026-11-01', to: '2026-11-30' }, now),
    )
    const plans = [...list, ...report].map((statement) => ({ sql: statement.sql, plan: planOf(planning.planner, statement).join(' | ') }))

    const ofNeeds = plans.filter(({ sql }) => /from "needs"/.test(sql))
    expect(ofNeeds).toHaveLength(3) // the page, the list's total and the report's counts of the bound's own day
    const [counts, pages] = [ofNeeds.filter(({ sql }) => /count\(/.test(sql)), ofNeeds.filter(({ sql }) => !/count\(/.test(sql))]
    expect([counts.length, pages.length]).toEqual([2, 1])
    // The counts read the index, which holds partner and status, never a need's row: the report's its bound's own
    // day, the list's total the needs not due by the bound, taken from the kept counts of open needs.
    for (const { plan } of counts) {
      expect(plan).toContain('SEARCH needs USING COVERING INDEX needs_open_by_due')
      expect(plan).not.toMatch(/SEARCH needs USING (?!COVERING INDEX needs_open_by_due)/)
    }
    const total = list.find(({ sql }) => /count\(/.test(sql))!
    expect(planOf(planning.planner, total).join(' | ')).toStartWith('SEARCH need_counts USING PRIMARY KEY')
    // The list's total is one statement, and reads no row per week of the past (need_due_weeks).
    expect(list.filter(({ sql }) => /need_due_weeks/.test(sql))).toEqual([])
    for (const { plan } of pages) expect(plan).toStartWith('SEARCH needs USING INDEX needs_open_by_due')
    for (const { plan } of plans) expect(plan).not.toMatch(/^SCAN|\| SCAN/)
  })
})

async function plansOf(work: Parameters<Planning<unknown>['recording']['measure']>[0]) {
  const { statements } = await planning.recording.measure(work)
  return statements.filter(({ sql }) => /from "needs"/.test(sql)).map((statement) => planOf(planning.planner, statement).join(' | '))
}

describe('SQLite query plans of the partial indexes of needs', () => {
  test('a list by assignee or by person searches the index of needs that have one', async () => {
    const byAssignee = await plansOf((r) =>
      r.needs.list(organization.id, { assignedTo: planning.filled.member.id }, { page: 1, limit: 25 }),
    )
    const byPerson = await plansOf((r) =>
      r.needs.list(organization.id, { constituentId: planning.filled.person.id }, { page: 1, limit: 25 }),
    )

    expect(byAssignee.length).toBeGreaterThan(0)
    for (const plan of byAssignee) expect(plan).toStartWith('SEARCH needs USING')
    expect(byAssignee.join()).toContain('needs_by_assignee')
    expect(byPerson.length).toBeGreaterThan(0)
    for (const plan of byPerson) expect(plan).toStartWith('SEARCH needs USING')
    expect(byPerson.join()).toContain('needs_by_constituent')
  })

  test('retention looks for resolved needs with their text in its own index', async () => {
    // Nothing is that old, so nothing is cleared: the read-only connection only plans the look.
    const plans = await plansOf((r) => r.needs.clearResolvedText(organization.id, minute(-1), minute(400), 100))

    expect(plans).toHaveLength(1)
    expect(plans[0]).toStartWith('SEARCH needs USING INDEX needs_text_retention')
  })
})
