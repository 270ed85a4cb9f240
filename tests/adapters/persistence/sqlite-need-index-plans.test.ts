import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { aConstituent, aHousehold, aMember, aNeed, anOrganization, aPartner } from '../../support/builders'
import { minute } from './contract-support'
import { planOf, recordingRepositories } from './recording-sqlite'
import { makeSqlite, type SqliteFixture } from './sqlite-fixture'

// docs/performance.md "What bounds each route": the indexes of needs by assignee, person and household hold
// only the needs that have one, and retention's only the resolved needs whose text is still there, so that a
// new need writes fewer index entries. The lookups that use them must still search them (on PostgreSQL too:
// postgres.test.ts "query plans").
const organization = anOrganization()
const partner = aPartner({ organizationId: organization.id })
const member = aMember({ organizationId: organization.id })
const household = aHousehold({ organizationId: organization.id })
const person = aConstituent({ organizationId: organization.id, householdId: household.id })

let sqlite: SqliteFixture
let recording: ReturnType<typeof recordingRepositories>
let planner: Database

beforeAll(async () => {
  sqlite = await makeSqlite()
  await sqlite.persistence.unitOfWork.run(async (r) => {
    await r.organizations.insert(organization)
    await r.partners.insert(partner)
    await r.members.insert(member)
    await r.constituents.insertHousehold(household)
    await r.constituents.insert(person)
    for (let n = 0; n < 300; n++) {
      const theirs = n % 10 === 0 ? { assignedTo: member.id, constituentId: person.id, householdId: household.id } : {}
      const status = n % 3 === 0 ? 'RESOLVED' : 'NEW'
      await r.needs.insert(aNeed({ organizationId: organization.id, partnerId: partner.id, status, createdAt: minute(n), ...theirs }))
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

async function plansOf(work: Parameters<typeof recording.measure>[0]) {
  const { statements } = await recording.measure(work)
  return statements.filter(({ sql }) => /from "needs"/.test(sql)).map((statement) => planOf(planner, statement).join(' | '))
}

describe('SQLite query plans of the partial indexes of needs', () => {
  test('a list by assignee or by person searches the index of needs that have one', async () => {
    const byAssignee = await plansOf((r) => r.needs.list(organization.id, { assignedTo: member.id }, { page: 1, limit: 25 }))
    const byPerson = await plansOf((r) => r.needs.list(organization.id, { constituentId: person.id }, { page: 1, limit: 25 }))

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
