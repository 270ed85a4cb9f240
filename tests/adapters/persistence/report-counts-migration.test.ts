import { afterAll, describe, expect, test } from 'bun:test'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { migratingPostgres, migratingSqlite, type MigratingDatabase } from './migrating-databases'
import { oldNeed, oldOrganization, oldPartner, oldStatusChange } from './old-rows'

// The report reads need_days, need_resolve_hours and need_due_weeks, which triggers keep from the migration on:
// the needs a database held before it must be counted by the migration itself, resolved ones at their last
// resolution.

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const at = (iso: string) => new Date(iso)

async function needsStoredBeforeTheReport(make: () => MigratingDatabase | Promise<MigratingDatabase>) {
  const database = await make()
  cleanups.push(database.cleanup)
  const { db, migrations, migrateToBefore, seed } = database
  await migrateToBefore('_due_dates_and_reports')
  const organization = anOrganization()
  const partner = aPartner({ organizationId: organization.id })
  const need = (createdAt: string, status: 'NEW' | 'RESOLVED', updatedAt = createdAt) =>
    aNeed({ organizationId: organization.id, partnerId: partner.id, status, createdAt: at(createdAt), updatedAt: at(updatedAt) })
  const open = { ...need('2026-11-02T08:00:00.000Z', 'NEW'), dueDate: at('2026-11-05T08:00:00.000Z') }
  const withHistory = need('2026-11-02T09:00:00.000Z', 'RESOLVED', '2026-11-06T00:00:00.000Z')
  const withoutHistory = need('2026-11-03T09:00:00.000Z', 'RESOLVED', '2026-11-03T19:00:00.000Z')
  await seed(
    oldOrganization(organization),
    oldPartner(partner),
    ...[open, withHistory, withoutHistory].map(oldNeed),
    ...['2026-11-03T09:00:00.000Z', '2026-11-04T09:00:00.000Z'].map((changedAt) => oldStatusChange(withHistory, 'RESOLVED', at(changedAt))),
  )

  await db.migrate(migrations)
  expect((await db.repositories.needs.findById(organization.id, withHistory.id))?.resolvedAt).toEqual(at('2026-11-04T09:00:00.000Z'))
  const figures = await db.repositories.needReports.figures(
    organization.id,
    { from: '2026-11-01', to: '2026-11-30' },
    at('2026-12-01T00:00:00.000Z'),
  )
  expect(figures.days.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
    { partnerId: partner.id, day: '2026-11-02', opened: 2, resolved: 0 },
    { partnerId: partner.id, day: '2026-11-03', opened: 1, resolved: 1 },
    { partnerId: partner.id, day: '2026-11-04', opened: 0, resolved: 1 },
  ])
  expect(figures.overdue).toEqual([{ partnerId: partner.id, needs: 1 }])
  expect(figures.resolveHours.sort((a, b) => a.hours - b.hours)).toEqual([
    { partnerId: partner.id, hours: 10, needs: 1 },
    { partnerId: partner.id, hours: 48, needs: 1 },
  ])
}

describe('upgrading to the kept report counts', () => {
  test('SQLite: the needs already stored are counted, resolved ones at their last resolution', async () => {
    await needsStoredBeforeTheReport(migratingSqlite)
  })

  test.if(postgresAvailable())('PostgreSQL: the needs already stored are counted, resolved ones at their last resolution', async () => {
    await needsStoredBeforeTheReport(migratingPostgres)
  })
})
