import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import type { NeedStatus } from '../../../src/domain/needs/need'
import { aConstituent, aNeed, anOrganization, aPartner } from '../../support/builders'
import { migratingSqlite } from './migrating-databases'

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

test('SQLite: the kept counts are stored in their keys’ order, and an upgrade keeps every count they held', async () => {
  const database = migratingSqlite()
  databases.push(database.cleanup)
  const { db, migrations } = database
  const clusteredAt = migrations.findIndex((m) => m.tag.endsWith('_kept_counts_without_rowid'))
  expect(clusteredAt).toBeGreaterThan(0)
  await db.migrate(migrations.slice(0, clusteredAt))

  const organization = anOrganization()
  const partner = aPartner({ organizationId: organization.id })
  const household = { id: crypto.randomUUID(), organizationId: organization.id, createdAt: at('2026-11-01T00:00:00.000Z') }
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
  await db.unitOfWork.run(async (r) => {
    await r.organizations.insert(organization)
    await r.partners.insert(partner)
    await r.constituents.insertHousehold(household)
    for (const firstName of ['Ana', 'Luis']) {
      await r.constituents.insert(aConstituent({ organizationId: organization.id, householdId: household.id, firstName }))
    }
    await r.needs.insert(need('2026-11-02T08:00:00.000Z', 'NEW'))
    await r.needs.insert(need('2026-11-02T09:00:00.000Z', 'IN_PROGRESS'))
    await r.needs.insert(need('2026-11-03T09:00:00.000Z', 'RESOLVED', '2026-11-04T11:00:00.000Z'))
  })
  const period = { from: '2026-11-01', to: '2026-11-30' }
  const now = at('2026-11-25T00:00:00.000Z')
  const counts = async () => ({
    report: await db.repositories.needReports.figures(organization.id, period, now),
    needs: (await db.repositories.needs.list(organization.id, {}, { page: 1, limit: 1 })).total,
    open: (await db.repositories.needs.list(organization.id, { statuses: ['NEW', 'IN_PROGRESS'] }, { page: 1, limit: 1 })).total,
    people: (await db.repositories.constituents.search(organization.id, { kind: 'all' }, { page: 1, limit: 1 })).total,
  })
  const before = await counts()
  expect(before.needs).toBe(3)
  expect(before.people).toBe(2)
  expect(before.report.overdue).toEqual([{ partnerId: partner.id, needs: 2 }])

  await db.migrate(migrations)
  const raw = new Database(database.path, { readonly: true })
  const tables = raw.query<{ name: string; wr: number }, []>('PRAGMA table_list').all()
  raw.close()
  for (const name of KEPT_COUNTS) expect({ name, withoutRowid: tables.find((t) => t.name === name)?.wr }).toEqual({ name, withoutRowid: 1 })
  expect(await counts()).toEqual(before)

  // The triggers on needs and constituents find the tables made again under their names.
  await db.unitOfWork.run(async (r) => {
    await r.needs.insert(need('2026-11-05T08:00:00.000Z', 'NEW'))
    await r.constituents.insert(aConstituent({ organizationId: organization.id, householdId: household.id, firstName: 'Eva' }))
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
