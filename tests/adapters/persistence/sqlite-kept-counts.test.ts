import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import type { NeedStatus } from '../../../src/domain/needs/need'
import { aConstituent, aHousehold, aNeed, anOrganization, aPartner } from '../../support/builders'
import { migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { markedTerms, oldConstituent, oldHousehold, oldNeed, oldOrganization, oldPartner } from './old-rows'

// Migration 0022 stores SQLite's kept counts (docs/transactions.md: list totals, the needs report's days,
// resolve hours and due weeks) in the order of their keys, WITHOUT ROWID, which drizzle-kit cannot express:
// every count a database held survives the change, the triggers go on keeping them, and a table made again by
// a later migration without it fails here.

const KEPT_COUNTS = ['need_counts', 'constituent_counts', 'need_days', 'need_resolve_hours', 'need_due_weeks']

const databases: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of databases) await cleanup()
})

const at = (iso: string) => new Date(iso)

/** Every row of the kept counts, read by SQL: the same before and after the upgrade, whatever its schema. */
async function keptCounts(database: MigratingDatabase) {
  const tables = await Promise.all(KEPT_COUNTS.map((name) => database.rows(`SELECT * FROM ${name}`)))
  return Object.fromEntries(KEPT_COUNTS.map((name, i) => [name, tables[i]!.map((row) => JSON.stringify(row)).sort()]))
}

test('SQLite: the kept counts are stored in their keys’ order, and an upgrade keeps every count they held', async () => {
  const database = migratingSqlite()
  databases.push(database.cleanup)
  const { db, migrations } = database
  await database.migrateToBefore('_kept_counts_without_rowid')

  const organization = anOrganization()
  const partner = aPartner({ organizationId: organization.id })
  const household = aHousehold({ organizationId: organization.id, createdAt: at('2026-11-01T00:00:00.000Z') })
  const need = (createdAt: string, status: NeedStatus, resolvedAt?: string) =>
    aNeed({
      organizationId: organization.id,
      partnerId: partner.id,
      status,
      createdAt: at(createdAt),
      updatedAt: at(resolvedAt ?? createdAt),
      dueDate: at('2026-11-20T00:00:00.000Z'),
      ...(resolvedAt ? { resolvedAt: at(resolvedAt) } : {}),
    })
  const person = (firstName: string) => aConstituent({ organizationId: organization.id, householdId: household.id, firstName })
  // Stored by the version before, whose triggers kept the counts as it wrote them.
  await database.seed(
    oldOrganization(organization),
    oldPartner(partner),
    oldHousehold(household),
    ...['Ana', 'Luis'].map((name) =>
      oldConstituent(person(name), { search: markedTerms(organization.id, [name.toLowerCase()]), phone: '' }),
    ),
    oldNeed(need('2026-11-02T08:00:00.000Z', 'NEW')),
    oldNeed(need('2026-11-02T09:00:00.000Z', 'IN_PROGRESS')),
    oldNeed(need('2026-11-03T09:00:00.000Z', 'RESOLVED', '2026-11-04T11:00:00.000Z')),
  )
  const before = await keptCounts(database)
  expect(KEPT_COUNTS.filter((name) => before[name]!.length === 0)).toEqual([]) // every table holds counts to keep

  await db.migrate(migrations)
  const raw = new Database(database.path, { readonly: true })
  const tables = raw.query<{ name: string; wr: number }, []>('PRAGMA table_list').all()
  raw.close()
  for (const name of KEPT_COUNTS) expect({ name, withoutRowid: tables.find((t) => t.name === name)?.wr }).toEqual({ name, withoutRowid: 1 })
  expect(await keptCounts(database)).toEqual(before)

  // What they held is what today's repositories read.
  const period = { from: '2026-11-01', to: '2026-11-30' }
  const now = at('2026-11-25T00:00:00.000Z')
  const counts = async () => ({
    report: await db.repositories.needReports.figures(organization.id, period, now),
    needs: (await db.repositories.needs.list(organization.id, {}, { page: 1, limit: 1 })).total,
    open: (await db.repositories.needs.list(organization.id, { statuses: ['NEW', 'IN_PROGRESS'] }, { page: 1, limit: 1 })).total,
    people: (await db.repositories.constituents.search(organization.id, { kind: 'all' }, { page: 1, limit: 1 })).total,
  })
  const upgraded = await counts()
  expect({ needs: upgraded.needs, open: upgraded.open, people: upgraded.people }).toEqual({ needs: 3, open: 2, people: 2 })
  expect(upgraded.report.overdue).toEqual([{ partnerId: partner.id, needs: 2 }])
  expect(upgraded.report.days.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
    { partnerId: partner.id, day: '2026-11-02', opened: 2, resolved: 0 },
    { partnerId: partner.id, day: '2026-11-03', opened: 1, resolved: 0 },
    { partnerId: partner.id, day: '2026-11-04', opened: 0, resolved: 1 },
  ])
  expect(upgraded.report.resolveHours).toEqual([{ partnerId: partner.id, hours: 26, needs: 1 }])

  // The triggers on needs and constituents find the tables made again under their names.
  await db.unitOfWork.run(async (r) => {
    await r.needs.insert(need('2026-11-05T08:00:00.000Z', 'NEW'))
    await r.constituents.insert(person('Eva'))
  })
  const after = await counts()
  expect({ needs: after.needs, open: after.open, people: after.people }).toEqual({ needs: 4, open: 3, people: 3 })
  expect(after.report.overdue).toEqual([{ partnerId: partner.id, needs: 3 }])
  expect(after.report.days.find((d) => d.day === '2026-11-05')).toEqual({
    partnerId: partner.id,
    day: '2026-11-05',
    opened: 1,
    resolved: 0,
  })
})
