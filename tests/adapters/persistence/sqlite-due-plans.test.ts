import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { minute } from './contract-support'
import { planOf, recordingRepositories } from './recording-sqlite'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'

// docs/api.md "Needs" and "Reports": what is overdue is read on the partial index of open needs by due date
// (needs_open_by_due) and the kept counts, on SQLite as on PostgreSQL (postgres.test.ts "query plans").
const organization = anOrganization()
const partner = aPartner({ organizationId: organization.id })

let sqlite: SqliteFixture
let recording: ReturnType<typeof recordingRepositories>
let planner: Database

beforeAll(async () => {
  sqlite = await makeSqlite()
  await sqlite.persistence.unitOfWork.run(async (r) => {
    await r.organizations.insert(organization)
    await r.partners.insert(partner)
    for (let n = 0; n < 300; n++) {
      const status = n % 3 === 0 ? 'RESOLVED' : 'NEW'
      await r.needs.insert(aNeed({ organizationId: organization.id, partnerId: partner.id, status, dueDate: minute(n * 10) }))
    }
  })
  recording = recordingRepositories(sqlite.path)
  planner = new Database(sqlite.path, { readonly: true })
})
afterAll(async () => {
  planner?.close()
  recording?.close()
  await sqlite?.cleanup()
})

describe('SQLite query plans of due dates', () => {
  test("an overdue list and the report's overdue count search needs_open_by_due and the kept counts, never scan needs", async () => {
    const now = minute(1500)
    const { statements: list } = await recording.measure((r) =>
      r.needs.list(organization.id, { openDueBefore: now }, { page: 1, limit: 25 }),
    )
    const { statements: report } = await recording.measure((r) =>
      r.needReports.figures(organization.id, { from: '2026-11-01', to: '2026-11-30' }, now),
    )
    const plans = [...list, ...report].map((statement) => ({ sql: statement.sql, plan: planOf(planner, statement).join(' | ') }))

    const ofNeeds = plans.filter(({ sql }) => /from "needs"/.test(sql))
    expect(ofNeeds).toHaveLength(3) // the page, the total's and the report's counts of the bound's own day
    for (const { plan } of ofNeeds) expect(plan).toStartWith('SEARCH needs USING INDEX needs_open_by_due')
    for (const { plan } of plans) expect(plan).not.toMatch(/^SCAN|\| SCAN/)
  })
})
